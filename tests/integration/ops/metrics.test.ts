import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const TOKEN = randomBytes(24).toString("hex");
let server: RunningServer;
let base: string;
let metricsPort: number;
let user: TestUser;
let proxy: http.Server;
let proxyUrl: string;

/** A local reverse proxy: every request reaches the portal from 127.0.0.1, as behind nginx. */
function startProxy(target: string): Promise<http.Server> {
  const upstream = new URL(target);
  const proxyServer = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": "203.0.113.7" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  return new Promise((resolve) => proxyServer.listen(0, "127.0.0.1", () => resolve(proxyServer)));
}

beforeAll(async () => {
  // HOST=0.0.0.0: the metrics port must stay on loopback even when the portal listens everywhere.
  server = await startBuiltServer({ METRICS_TOKEN: TOKEN, METRICS_PORT: "0", HOST: "0.0.0.0", TRUST_PROXY: "true", LOG_PRETTY: "0" });
  base = server.url.replace("localhost", "127.0.0.1");
  for (let waited = 0; !server.output().includes("métricas no ar") && waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const line = server
    .output()
    .split("\n")
    .find((text) => text.includes("métricas no ar"))!;
  const started = JSON.parse(line) as { host: string; port: number };
  expect(started.host).toBe("127.0.0.1");
  metricsPort = started.port;
  user = await createTestUser(server.db, ["visualizador"]);
  proxy = await startProxy(base);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy?.close();
  await server?.stop();
});

/** The value of one sample in Prometheus text format (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=[a-z_]+=")/) : [];
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return 0;
}

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

describe("metrics", () => {
  it("/metrics on the main port requires the bearer token, also through a local proxy", async () => {
    for (const url of [base, proxyUrl]) {
      for (const headers of [{}, { authorization: "Bearer errado" }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
        const refused = await fetch(`${url}/metrics`, { headers });
        expect(refused.status, `${url} ${JSON.stringify(headers)}`).toBe(401);
        const body = await refused.text();
        expect(body).not.toContain("b1_http_requests_total");
        expect(body).not.toContain("process_resident_memory_bytes");
      }
      const allowed = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("content-type")).toContain("text/plain");
      expect(allowed.headers.get("cache-control")).toBe("no-store");
      expect(await allowed.text()).toContain("b1_http_requests_total");
    }
  });

  it("the metrics port answers on loopback only", async () => {
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/faq`)).status).toBe(404);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === "IPv4");
    if (!external) return;
    // The portal itself is reachable on that address (HOST=0.0.0.0); the metrics port is not.
    expect((await fetch(`http://${external.address}:${new URL(base).port}/healthz`)).status).toBe(200);
    await expect(fetch(`http://${external.address}:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it("counters, histograms and gauges reflect the requests served", async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${base}/faq`, { headers: { cookie: `b1_session=${user.token}` } })).status).toBe(200);
    }
    for (let i = 0; i < 2; i++) expect((await fetch(`${base}/nao-existe-${i}`)).status).toBe(404);
    const signIn = (password: string) =>
      fetch(`${base}/api/auth/sign-in`, {
        method: "POST",
        headers: { origin: base, "content-type": "application/json" },
        body: JSON.stringify({ email: user.email, password }),
      });
    expect((await signIn("Senha@Errada9")).status).toBe(401);
    expect((await signIn(user.password)).status).toBe(200);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("b1_http_requests_total", { route_class: "page", status: "200" })).toBe(3);
    expect(delta("b1_http_requests_total", { route_class: "other", status: "404" })).toBe(2);
    expect(delta("b1_http_requests_total", { route_class: "api", status: "401" })).toBe(1);
    expect(delta("b1_http_request_duration_seconds_count", { route_class: "page", status: "200" })).toBe(3);
    expect(delta("b1_http_request_duration_seconds_bucket", { route_class: "page", status: "200", le: "+Inf" })).toBe(3);
    expect(delta("b1_sign_in_attempts_total", { outcome: "failure" })).toBe(1);
    expect(delta("b1_sign_in_attempts_total", { outcome: "success" })).toBe(1);
    expect(delta("b1_sign_in_attempts_total", { outcome: "blocked" })).toBe(0);
    expect(delta("b1_session_check_duration_seconds_count")).toBeGreaterThanOrEqual(3);
    expect(sample(after, "b1_active_sessions")).toBeGreaterThanOrEqual(2);
    expect(sample(after, "b1_page_variant_cache_entries")).toBeGreaterThanOrEqual(1);
    expect(sample(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});
