/**
 * The shipped systemd unit and HAProxy example agree on the stop sequence: the portal keeps
 * answering (drain) longer than the balancer needs to see `/readyz` fail, and systemd waits longer
 * than drain + in-flight requests before its SIGKILL.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const unit = fs.readFileSync("deploy/b1-method-hub.service", "utf8");
const haproxy = fs.readFileSync("deploy/haproxy.cfg", "utf8");

/** `Environment=NAME=value` of the unit, as a number. */
function unitEnv(name: string): number {
  const match = new RegExp(`^Environment=${name}=(\\d+)$`, "m").exec(unit);
  if (!match) throw new Error(`${name} ausente da unidade`);
  return Number(match[1]);
}

function haproxyMs(name: string): number {
  const match = new RegExp(`^\\s*default-server\\b.*\\b${name} (\\d+)(ms|s)\\b`, "m").exec(haproxy);
  if (!match) throw new Error(`${name} ausente de default-server`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

describe("deploy files", () => {
  it("drain outlasts HAProxy's detection of the 503, and TimeoutStopSec outlasts drain + in-flight requests", () => {
    const drainMs = unitEnv("SHUTDOWN_DRAIN_MS");
    const timeoutMs = unitEnv("SHUTDOWN_TIMEOUT_MS");
    const fall = Number(/^\s*default-server\b.*\bfall (\d+)\b/m.exec(haproxy)?.[1]);
    // Taken out after `fall` failed checks, the first one up to `inter` after the signal; twice that for a slow check.
    expect(drainMs).toBeGreaterThanOrEqual(2 * haproxyMs("inter") * (fall + 1));
    expect(haproxy).toMatch(/^\s*option httpchk GET \/readyz$/m);
    const stopSec = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
    expect(stopSec * 1000).toBeGreaterThan(drainMs + timeoutMs + 5_000);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    // The env file is read after the defaults, so an operator's value wins.
    expect(unit.indexOf("EnvironmentFile=")).toBeGreaterThan(unit.indexOf("Environment=SHUTDOWN_DRAIN_MS"));
    // glibc malloc: fewer arenas, big blocks returned when freed (docs/desempenho.md, Memória).
    expect(unit).toMatch(/^Environment=MALLOC_ARENA_MAX=2$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node --disable-proto=throw .*dist\/gate\/main\.mjs$/m);
  });

  it("the guide shows the unit file as shipped", () => {
    const guide = fs.readFileSync("docs/implantacao.md", "utf8");
    expect(guide).toContain("deploy/b1-method-hub.service");
    for (const line of unit.split("\n").filter((text) => /^(Environment|ExecStart|TimeoutStopSec)=/.test(text)))
      expect(guide).toContain(line);
  });
});

describe("HAProxy's 503 page (deploy/errors/503.http)", () => {
  const raw = fs.readFileSync("deploy/errors/503.http");
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, split).toString("latin1").split("\r\n");
  const body = raw.subarray(split + 4);
  const header = (name: string) =>
    head
      .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim();

  it("is a complete 503 with Retry-After whose Content-Length is its body's, small enough for one HAProxy buffer", () => {
    expect(head[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(header("Retry-After")).toMatch(/^\d+$/);
    expect(header("Content-Type")).toBe("text/html; charset=utf-8");
    expect(header("Cache-Control")).toBe("no-store");
    expect(Number(header("Content-Length"))).toBe(body.length);
    // HAProxy refuses an errorfile larger than a buffer (tune.bufsize 16384, less tune.maxrewrite 1024).
    expect(raw.length).toBeLessThan(16_384 - 1_024);
  });

  it("is the portal's Portuguese page, needing nothing the instances serve", () => {
    const html = body.toString("utf8");
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("Serviço temporariamente indisponível");
    expect(html).not.toMatch(/<(link|script|img)\b/);
    expect(haproxy).toMatch(/^\s+errorfile 503 \S+b1-503\.http$/m);
  });
});
