/**
 * Audit streaming to syslog (issue 45) against a real rsyslog on loopback, both engines: RFC 5424
 * messages with structured data in octet-counted frames over TCP, and over TLS (RFC 5425) with the
 * company's CA; rsyslog restarted mid-stream loses nothing and keeps the order (a repeat is allowed:
 * at least once). Skipped with a message where rsyslog is not installed (never in CI: .ci/run installs it).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDestinations, auditLogs } from "../../../db/schema/index";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { firstArrivals } from "../../support/audit-receiver";
import { onPostgres } from "../../support/pg";
import { rsyslogMissing, startRsyslog, type Rsyslog } from "../../support/rsyslog";
import { scriptArgs } from "../../support/scripts";
import { startBuiltServer, type RunningServer } from "../../support/server";

const missingTcp = rsyslogMissing(false);
const missingTls = rsyslogMissing(true);
if (missingTcp && process.env.CI) throw new Error(`CI sem rsyslog: ${missingTcp}`);
if (missingTcp) console.warn(`audit-syslog: testes pulados (${missingTcp})`);
else if (missingTls) console.warn(`audit-syslog: teste TLS pulado (${missingTls})`);

const HEADER =
  /^<(\d+)>1 (\S+) (\S+) b1-method-hub (\d+) (\S+) \[b1audit@32473 id="(\d+)" hash="([0-9a-f]*)" prevHash="([0-9a-f]*)" action="([^"]*)"/;

interface Parsed {
  pri: number;
  time: string;
  id: number;
  hash: string;
  msgid: string;
  event: { id: number; hash: string | null; action: string; detailsText: string | null };
}

function parse(line: string): Parsed {
  const match = HEADER.exec(line);
  if (!match) throw new Error(`mensagem fora do RFC 5424: ${line.slice(0, 200)}`);
  const json = line.slice(line.indexOf("{", line.indexOf("] ")));
  return {
    pri: Number(match[1]),
    time: match[2]!,
    msgid: match[5]!,
    id: Number(match[6]),
    hash: match[7]!,
    event: JSON.parse(json) as Parsed["event"],
  };
}

async function rowsOf(server: RunningServer) {
  return server.db.select().from(auditLogs).orderBy(asc(auditLogs.id));
}

async function write(server: RunningServer, count: number, tag: string) {
  for (let index = 0; index < count; index++)
    await writeAuditLog(server.db, {
      actionType: "page_access_denied",
      result: "failure",
      details: { path: `/${tag}/${index}`, note: 'aspas " e ] e \\' },
    });
}

function env(url: string, ca?: string | null): Record<string, string> {
  return {
    AUDIT_SYSLOG_URL: url,
    ...(ca ? { AUDIT_SYSLOG_CA: ca } : {}),
    AUDIT_STREAM_POLL_MS: "50",
    AUDIT_STREAM_BACKOFF_MS: "40",
    AUDIT_SYSLOG_BATCH: "7",
  };
}

describe.skipIf(missingTcp !== null)("audit streaming to rsyslog over TCP", () => {
  let rsyslog: Rsyslog;
  let server: RunningServer;
  beforeAll(async () => {
    rsyslog = await startRsyslog({ tls: false });
    server = await startBuiltServer(env(`tcp://127.0.0.1:${rsyslog.port}`));
  });
  afterAll(async () => {
    await server?.stop();
    await rsyslog?.stop();
  });

  const arrived = () => rsyslog.lines().map(parse);
  async function caughtUp() {
    const rows = await rowsOf(server);
    await expect
      .poll(() => Math.max(0, ...arrived().map((line) => line.id)), { timeout: 15_000, interval: 50 })
      .toBeGreaterThanOrEqual(rows.at(-1)!.id);
  }

  it("writes RFC 5424 messages with structured data, in chain order, one per row", async () => {
    await write(server, 10, "tcp");
    await caughtUp();
    const rows = await rowsOf(server);
    const lines = arrived();
    expect(firstArrivals(lines)).toEqual(rows.map((row) => row.id));
    for (const line of lines) {
      const row = rows.find((candidate) => candidate.id === line.id)!;
      expect(line.hash).toBe(row.hash);
      expect(line.event.hash).toBe(row.hash);
      expect(line.event.detailsText).toBe(row.actionDetails);
      expect(line.msgid).toBe(row.actionType);
      // Facility 13 (log audit); a failure is a notice (5).
      expect(line.pri).toBe(row.result === "failure" ? 13 * 8 + 5 : line.pri);
      expect(new Date(line.time).getTime()).toBe(row.createdAt);
    }
  });

  it("rsyslog restarted mid-stream: nothing lost, order kept, the error shown", async () => {
    const writing = write(server, 60, "restart");
    await expect
      .poll(() => arrived().filter((line) => line.event.detailsText?.includes("/restart/")).length, { timeout: 10_000, interval: 10 })
      .toBeGreaterThan(5);
    await rsyslog.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await rsyslog.start();
    await writing;
    await caughtUp();
    const rows = await rowsOf(server);
    expect(firstArrivals(arrived())).toEqual(rows.map((row) => row.id));
    const [state] = await server.db.select().from(auditDestinations);
    expect(state!.lastError).toMatch(/coletor syslog/);
    expect(state!.lastErrorAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it("what rsyslog wrote (repeats of the restart included) verifies against the chain and the database", async () => {
    const file = path.join(server.dataDir, "rsyslog-copia.log");
    fs.writeFileSync(file, rsyslog.lines().join("\n") + "\n");
    const run = spawnSync(process.execPath, scriptArgs("scripts/audit-verify.ts", ["--file", file, "--db"]), {
      env: { ...process.env, ...server.databaseEnv },
      encoding: "utf8",
      timeout: 30_000,
    });
    const rows = await rowsOf(server);
    expect(run.stdout + run.stderr).toMatch(
      new RegExp(`OK: cópia .* ${rows.length} eventos, registros #${rows[0]!.id} a #${rows.at(-1)!.id}`),
    );
    expect(run.status).toBe(0);
  });
});

// The transport does not depend on the engine: the TLS case runs in the SQLite pass only (CI time).
describe.skipIf(missingTls !== null || onPostgres)("audit streaming to rsyslog over TLS", () => {
  let rsyslog: Rsyslog;
  let server: RunningServer;
  beforeAll(async () => {
    rsyslog = await startRsyslog({ tls: true });
    server = await startBuiltServer(env(`tls://127.0.0.1:${rsyslog.port}`, rsyslog.caFile));
  });
  afterAll(async () => {
    await server?.stop();
    await rsyslog?.stop();
  });

  it("delivers over TLS, trusting the company's CA", async () => {
    await write(server, 5, "tls");
    const rows = await rowsOf(server);
    await expect
      .poll(() => Math.max(0, ...rsyslog.lines().map((line) => parse(line).id)), { timeout: 15_000, interval: 50 })
      .toBeGreaterThanOrEqual(rows.at(-1)!.id);
    expect(firstArrivals(rsyslog.lines().map(parse))).toEqual(rows.map((row) => row.id));
  });
});
