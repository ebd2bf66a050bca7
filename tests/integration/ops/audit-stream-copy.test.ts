/**
 * Issue 45, both engines, on the built server: (1) the events a local receiver got, saved as a SIEM
 * would (webhook bodies as delivered, or one event per line), verify with `npm run audit:verify --
 * --file` (and `--db` against the rows); an edited or missing event fails naming it. (2) "Reenviar a
 * partir de…" by DATE: a date is a day in TZ_DISPLAY (pinned here: America/Sao_Paulo, UTC−3), the
 * receiver gets exactly the events from the first one of that day on, in chain order, and it is
 * audited; a date after every row resends nothing; one before the first resends all; malformed
 * dates are refused in Portuguese, changing nothing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditDestinations, auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { startAuditReceiver, type AuditReceiver } from "../../support/audit-receiver";
import { scriptArgs } from "../../support/scripts";
import { allAuditIds, deliveredToHead, lastAuditId } from "../../support/audit-stream";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const SECRET = "whsec_" + Buffer.from("segredo-de-teste-da-copia-siem-0123456789").toString("base64");

let receiver: AuditReceiver;
let server: RunningServer;
let admin: TestUser;

const allIds = () => allAuditIds(server);

const lastId = () => lastAuditId(server);

const caughtUp = () => deliveredToHead(receiver, server);

/** One row per time given (the test process's clock set to it while writing, so each row's hash covers that time). */
async function writeRowsAt(times: number[]): Promise<number[]> {
  const ids: number[] = [];
  for (const time of times) {
    const clock = vi.spyOn(Date, "now").mockReturnValue(time);
    try {
      ids.push(await writeAuditLog(server.db, { actionType: "page_access_granted", result: "success", details: { path: `/em/${time}` } }));
    } finally {
      clock.mockRestore();
    }
  }
  return ids;
}

function resend(from: unknown) {
  return fetch(`${server.url}/api/admin/integracoes`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, cookie: `b1_session=${admin.token}` },
    body: typeof from === "string" && from.startsWith("{") ? from : JSON.stringify({ destination: "webhook", action: "resend", from }),
  });
}

function auditVerify(args: string[]) {
  const run = spawnSync(process.execPath, scriptArgs("scripts/audit-verify.ts", args), {
    env: { ...process.env, ...server.databaseEnv },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

beforeAll(async () => {
  receiver = await startAuditReceiver(SECRET, await freePort());
  server = await startBuiltServer({
    AUDIT_WEBHOOK_URL: receiver.url,
    AUDIT_WEBHOOK_SECRET: SECRET,
    AUDIT_WEBHOOK_BATCH: "4",
    AUDIT_WEBHOOK_TIMEOUT_MS: "2000",
    AUDIT_STREAM_POLL_MS: "50",
    AUDIT_STREAM_BACKOFF_MS: "40",
    TZ_DISPLAY: "America/Sao_Paulo",
  });
  admin = await createTestUser(server.db, ["admin"], "admin-copia");
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe("a SIEM copy of the streamed events", () => {
  it("verifies as delivered (webhook bodies, or one event per line, also against the database); an edited or missing event fails", async () => {
    for (let index = 0; index < 9; index++)
      await writeAuditLog(server.db, {
        actionType: index % 3 ? "page_access_denied" : "user_login_attempt",
        result: index % 3 ? "failure" : "blocked",
        details: { path: `/x/${index}\u202e`, note: 'aspas " ] \\ \u0000', count: 1 },
      });
    await caughtUp();
    const dir = server.dataDir;
    const ok = receiver.requests.filter((request) => request.status === 200);
    const bodies = path.join(dir, "corpos.ndjson");
    fs.writeFileSync(bodies, ok.map((request) => request.raw).join("\n") + "\n");
    const events = receiver.accepted();
    const lines = events.map((event) => JSON.stringify(event));
    const perLine = path.join(dir, "eventos.ndjson");
    fs.writeFileSync(perLine, lines.join("\n") + "\n");
    const total = new Set(events.map((event) => event.id)).size;
    expect(total).toBe((await allIds()).length);

    const fromBodies = auditVerify(["--file", bodies]);
    const [first] = await allIds();
    expect(fromBodies.output).toMatch(new RegExp(`^OK: cópia .* ${total} eventos, registros #${first} a #${await lastId()}`));
    expect(fromBodies.status).toBe(0);
    const withDb = auditVerify(["--file", perLine, "--db"]);
    expect(withDb.output).toMatch(/^OK: cadeia do banco íntegra, \d+ registros\.\nOK: cópia /);
    expect(withDb.status).toBe(0);

    // An event edited in the SIEM (its hash left as delivered).
    const victim = events[Math.floor(events.length / 2)]!;
    const edited = lines.map((line, index) =>
      events[index]!.id === victim.id ? JSON.stringify({ ...events[index], action: "admin_role_assigned" }) : line,
    );
    fs.writeFileSync(perLine, edited.join("\n") + "\n");
    const tampered = auditVerify(["--file", perLine]);
    expect(tampered.status).toBe(1);
    expect(tampered.output).toMatch(new RegExp(`hash não confere com o conteúdo \\(alterados\\): linha \\d+: registro #${victim.id}\\b`));

    // An event deleted from the SIEM: a gap without the database, the row named with it.
    const ids = [...new Set(events.map((event) => event.id))];
    const gone = ids[3]!;
    fs.writeFileSync(perLine, lines.filter((_, index) => events[index]!.id !== gone).join("\n") + "\n");
    const gap = auditVerify(["--file", perLine]);
    expect(gap.status).toBe(1);
    expect(gap.output).toMatch(new RegExp(`lacunas na cadeia .*: entre #${ids[2]} e #${ids[4]}`));
    const gapDb = auditVerify(["--file", perLine, "--db"]);
    expect(gapDb.status).toBe(1);
    expect(gapDb.output).toMatch(new RegExp(`registros do banco que faltam no arquivo: registro #${gone}\\b`));
  });
});

describe("reenviar a partir de uma data", () => {
  // Days ahead of the real clock, so the rows dated there come after (in chain order) every row before them.
  const base = new Date();
  const dayUtc = (offset: number, hours: number) => Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate() + offset, hours);
  const isoDay = (offset: number) => new Date(dayUtc(offset, 12)).toISOString().slice(0, 10);
  let dated: { a: number; b: number; c: number; d: number };

  /** The ids the receiver got after resending `from`, up to (not with) a row written after it. */
  async function deliveredAgain(from: unknown): Promise<{ ids: number[]; message: string; marker: number; head: number }> {
    await caughtUp();
    const before = receiver.accepted().length;
    const head = await lastId();
    const response = await resend(from);
    expect(response.status).toBe(200);
    const { message } = (await response.json()) as { message: string };
    // A row after the resend: once it arrived, everything the resend sent before it did too.
    const [marker] = await writeRowsAt([Date.now()]);
    await caughtUp();
    const ids = receiver
      .accepted()
      .slice(before)
      .map((event) => event.id);
    expect(ids.at(-1)).toBe(marker);
    // A batch read just before the rewind may still arrive first (at least once: it comes again later, in order);
    // the resend starts where the ids first step back.
    const restart = Math.max(
      0,
      ids.findIndex((id, index) => index > 0 && id <= ids[index - 1]!),
    );
    return { ids: ids.slice(restart, -1), message, marker: marker!, head };
  }

  beforeAll(async () => {
    // D+10 09:00 local; D+11 01:00 UTC = D+10 22:00 in São Paulo (the TZ edge); D+11 04:00 UTC = D+11 01:00 local; D+12.
    const [a, b, c, d] = await writeRowsAt([dayUtc(10, 12), dayUtc(11, 1), dayUtc(11, 4), dayUtc(12, 12)]);
    dated = { a: a!, b: b!, c: c!, d: d! };
  });

  it("a date is a day in TZ_DISPLAY: from its first event on, in chain order, audited", async () => {
    const { ids, message, marker } = await deliveredAgain(isoDay(11));
    // Not the row at 01:00 UTC of that day (still the day before in São Paulo): from 01:00 local on, each once, in order.
    expect(ids[0]).toBe(dated.c);
    expect(ids).toEqual((await allIds()).filter((id) => id >= dated.c && id < marker));
    expect(ids).toContain(dated.d);
    expect(message).toBe(`Reenvio a partir do registro ${dated.c}`);
    const [row] = await server.db
      .select({ userId: auditLogs.userId, details: auditLogs.actionDetails })
      .from(auditLogs)
      .where(eq(auditLogs.actionType, "audit_stream_resend"))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(row!.userId).toBe(admin.id);
    expect(JSON.parse(row!.details!)).toMatchObject({ destination: "webhook", from: isoDay(11), cursor: dated.c - 1 });
  });

  it("a time with an offset is that instant (inclusive); a time without one is wall-clock time in TZ_DISPLAY", async () => {
    expect((await deliveredAgain(`${isoDay(11)}T01:00:00Z`)).ids[0]).toBe(dated.b);
    // 00:30 in São Paulo is 03:30 UTC: after b (01:00 UTC), before c (04:00 UTC).
    expect((await deliveredAgain(`${isoDay(11)}T00:30`)).ids[0]).toBe(dated.c);
  });

  it("a date after every row resends nothing; one before the first event resends the whole log", async () => {
    const future = await deliveredAgain(isoDay(40));
    // Only what was written since: the resend's own audit row.
    expect(future.ids).toEqual((await allIds()).filter((id) => id > future.head && id < future.marker));
    expect(future.ids).toHaveLength(1);
    expect(future.message).toBe("Nenhum registro a partir dessa data: nada a reenviar");
    const all = await deliveredAgain("2000-01-01");
    expect(all.ids).toEqual((await allIds()).filter((id) => id < all.marker));
  });

  it("refuses malformed dates in Portuguese, changing nothing and auditing nothing", async () => {
    await caughtUp();
    const [state] = await server.db.select().from(auditDestinations).where(eq(auditDestinations.name, "webhook"));
    const rowsBefore = await lastId();
    const bad: unknown[] = [
      "2026-02-30",
      "2026-13-01",
      "2026-01-01T24:00",
      "9999999-01-01",
      "0000-01-01",
      "\u202e2026-01-01",
      "2026-01-01\u202e",
      "2026\u20111\u201101",
      "２０２６-01-01",
      "__proto__",
      "constructor",
      "2026-01-01T00:00+99:99",
      "1e3",
      "-1",
    ];
    for (const from of bad) {
      const response = await resend(from);
      expect(response.status, JSON.stringify(from)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/Informe um número de registro .* ou uma data \(AAAA-MM-DD\)/);
    }
    for (const body of [
      '{"destination":"webhook","action":"resend","from":{"__proto__":{"time":0}}}',
      '{"destination":"webhook","action":"resend","from":["2000-01-01"]}',
      '{"destination":"webhook","action":"resend","__proto__":{"from":"2000-01-01"}}',
    ]) {
      const response = await resend(body);
      expect(response.status, body).toBe(400);
    }
    const [after] = await server.db.select().from(auditDestinations).where(eq(auditDestinations.name, "webhook"));
    expect(after!.deliveredId).toBe(state!.deliveredId);
    expect(await lastId()).toBe(rowsBefore);
  });
});
