/**
 * Audit streaming to a signed webhook (issue 45), on the built server, both engines: every row
 * arrives signed (Standard Webhooks), in chain order, with nothing secret in any byte; a receiver
 * answering 500, 429 + Retry-After, hanging past the timeout or cutting the connection loses
 * nothing; a 4xx stops the destination until "retomar"; the Integrações API pauses, resumes and
 * resends (audited, CSRF-checked, admins only); a SIGKILL mid-batch repeats only that batch.
 */
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { startAuditReceiver, firstArrivals, type AuditReceiver } from "../../support/audit-receiver";
import { allAuditIds, deliveredToHead, lastAuditId } from "../../support/audit-stream";
import { onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const SECRET = "whsec_" + Buffer.from("segredo-de-teste-do-webhook-b1-0123456789").toString("base64");
const WRONG_PASSWORD = "Errada@Senha-4242";
const METRICS_TOKEN = "token-das-metricas-de-teste-0123456789";

let receiver: AuditReceiver;
let server: RunningServer;
let admin: TestUser;
let viewer: TestUser;

function streamEnv(url: string): Record<string, string> {
  return {
    AUDIT_WEBHOOK_URL: url,
    AUDIT_WEBHOOK_SECRET: SECRET,
    AUDIT_WEBHOOK_BATCH: "5",
    // Long enough that a loaded machine's slow answer is not a timeout (a retry would repeat a batch the receiver took).
    AUDIT_WEBHOOK_TIMEOUT_MS: "2000",
    AUDIT_STREAM_POLL_MS: "50",
    AUDIT_STREAM_LEASE_MS: "3000",
    AUDIT_STREAM_BACKOFF_MS: "40",
    METRICS_TOKEN: METRICS_TOKEN,
  };
}

const lastId = (target: RunningServer = server) => lastAuditId(target);

const allIds = (target: RunningServer = server) => allAuditIds(target);

/** Until the receiver accepted every row written so far (the newest id read again at each look: a row may land after a response). */
const caughtUp = (timeout = 15_000, target: RunningServer = server) => deliveredToHead(receiver, target, timeout);

async function writeRows(count: number, target: RunningServer = server) {
  for (let index = 0; index < count; index++)
    await writeAuditLog(target.db, { actionType: "page_access_granted", result: "success", details: { path: `/p${index}` } });
}

function api(method: string, who: TestUser | null, body?: unknown, origin: string | null = server.url) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (origin) headers.origin = origin;
  if (who) headers.cookie = `b1_session=${who.token}`;
  return fetch(`${server.url}/api/admin/integracoes`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function webhookState() {
  const response = await api("GET", admin);
  expect(response.status).toBe(200);
  const { destinations } = (await response.json()) as { destinations: Record<string, unknown>[] };
  return destinations.find((destination) => destination.name === "webhook")!;
}

beforeAll(async () => {
  receiver = await startAuditReceiver(SECRET, await freePort());
  server = await startBuiltServer(streamEnv(receiver.url));
  admin = await createTestUser(server.db, ["admin"], "admin-stream");
  viewer = await createTestUser(server.db, ["visualizador"], "leitor-stream");
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe("audit streaming to a webhook", () => {
  it("delivers every row signed, in chain order, with the audit page's fields and no secret", async () => {
    // A sign-in with the right password and one with a wrong one: rows whose requests carried secrets.
    const signIn = (password: string) =>
      fetch(`${server.url}/api/auth/sign-in`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({ email: admin.email, password }),
      });
    const good = await signIn(admin.password);
    expect(good.status).toBe(200);
    const cookie = good.headers.get("set-cookie") ?? "";
    expect((await signIn(WRONG_PASSWORD)).status).toBe(401);
    await caughtUp();

    expect(receiver.requests.length).toBeGreaterThan(0);
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
    for (const request of receiver.requests) {
      const ids = request.events.map((event) => event.id);
      expect(request.events.length).toBeLessThanOrEqual(5);
      expect(request.headers["webhook-id"]).toBe(`${ids[0]}-${ids.at(-1)}`);
    }
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());

    // Each event is the row: its hash as stored, chained from the one before.
    const rows = await server.db.select().from(auditLogs).orderBy(asc(auditLogs.id));
    // At least once: a repeat is dropped by id, as a receiver does.
    const seen = new Set<number>();
    const events = receiver.accepted().filter((event) => !seen.has(event.id) && seen.add(event.id));
    for (const row of rows) {
      const event = events.find((candidate) => candidate.id === row.id)!;
      expect(event.hash).toBe(row.hash);
      expect(event.action).toBe(row.actionType);
      expect(event.ip).toBe(row.ipAddress);
      expect(event.detailsText).toBe(row.actionDetails);
      expect(new Date(event.time).getTime()).toBe(row.createdAt);
      expect(event.instance).toMatch(/:\d+$/);
    }
    const success = events.find((event) => event.action === "user_login_success")!;
    expect(success.actor.email).toBe(admin.email);
    for (let index = 1; index < events.length; index++) expect(events[index]!.prevHash).toBe(events[index - 1]!.hash);

    // No secret in any delivered byte: passwords, the session tokens, the webhook secret.
    const sessionToken = /b1_session=([^;]+)/.exec(cookie)?.[1] ?? "";
    expect(sessionToken.length).toBeGreaterThan(10);
    const everything = receiver.requests.map((request) => request.raw + JSON.stringify(request.headers)).join("\n");
    for (const secret of [admin.password, WRONG_PASSWORD, sessionToken, admin.token, viewer.token, SECRET, SECRET.slice(6)]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("500, 429 with Retry-After, a hang past the timeout and a cut connection lose nothing and keep the order", async () => {
    const before = receiver.requests.length;
    const script: ("500" | "429" | "hang" | "reset")[] = ["500", "429", "hang", "reset", "500"];
    receiver.respond = ({ index }) => {
      const step = script[index - before];
      if (step === "500") return { status: 500 };
      if (step === "429") return { status: 429, headers: { "retry-after": "1" } };
      if (step === "hang") return "hang";
      if (step === "reset") return "reset";
      return { status: 200 };
    };
    await writeRows(12);
    await caughtUp(20_000);
    receiver.respond = () => ({ status: 200 });

    const statuses = receiver.requests.slice(before).map((request) => request.status);
    expect(statuses.slice(0, 6)).toEqual([500, 429, "hang", "reset", 500, 200]);
    // Retry-After: 1 was honoured (the next attempt came at least a second later).
    const afterTooMany = receiver.requests[before + 2]!.at - receiver.requests[before + 1]!.at;
    expect(afterTooMany).toBeGreaterThanOrEqual(950);
    // A retry is the same batch (same webhook-id) until it is taken.
    expect(new Set(receiver.requests.slice(before, before + 6).map((request) => request.headers["webhook-id"])).size).toBe(1);
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());

    const state = await webhookState();
    expect(state.lastError).toEqual(expect.stringContaining("500"));
    expect(state.lagEvents).toBe(0);
    expect(state.stoppedReason).toBeNull();
  });

  it("a 4xx stops the destination with its reason until an admin resumes it", async () => {
    receiver.respond = () => ({ status: 401 });
    const before = receiver.requests.length;
    await writeRows(3);
    await expect.poll(async () => (await webhookState()).stoppedReason, { timeout: 10_000, interval: 50 }).toMatch(/HTTP 401/);
    const tries = receiver.requests.length - before;

    expect(tries).toBe(1);
    // Stopped: no retry of a refusal the receiver would repeat.
    await writeRows(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests.length - before).toBe(1);
    expect((await webhookState()).lagEvents).toBe(4);

    receiver.respond = () => ({ status: 200 });
    const resumed = await api("POST", admin, { destination: "webhook", action: "resume" });
    expect(resumed.status).toBe(200);
    await caughtUp();
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());
    const state = await webhookState();
    expect(state.stoppedReason).toBeNull();
    expect(state.paused).toBe(false);
  });

  it("pause holds delivery, resume catches up, resend repeats from a chain id; each is audited", async () => {
    expect((await api("POST", admin, { destination: "webhook", action: "pause" })).status).toBe(200);
    expect((await webhookState()).paused).toBe(true);
    const pausedAt = await lastId();
    await writeRows(3);
    await expect.poll(async () => (await webhookState()).lagEvents, { timeout: 5000, interval: 50 }).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The three rows written after the pause wait (the pause's own row may leave in a batch read just before it took hold).
    expect(receiver.accepted().filter((event) => event.id > pausedAt)).toEqual([]);

    expect((await api("POST", admin, { destination: "webhook", action: "resume" })).status).toBe(200);
    await caughtUp();

    const ids = await allIds();
    const from = ids[ids.length - 6]!;
    const count = receiver.accepted().length;
    const resend = await api("POST", admin, { destination: "webhook", action: "resend", from: String(from) });
    expect(resend.status).toBe(200);
    await caughtUp();
    const again = receiver
      .accepted()
      .slice(count)
      .map((event) => event.id);
    // A batch read just before the rewind may still arrive first (at least once: the newest row, again later);
    // from the chain id on, the six rows come again in order.
    expect(again.slice(again.indexOf(from), again.indexOf(from) + 6)).toEqual(ids.slice(-6));

    const actions = (
      await server.db
        .select({ actionType: auditLogs.actionType, userId: auditLogs.userId, details: auditLogs.actionDetails })
        .from(auditLogs)
    ).filter((row) => row.actionType.startsWith("audit_stream_"));
    expect(actions.map((row) => row.actionType)).toEqual(
      expect.arrayContaining(["audit_stream_paused", "audit_stream_resumed", "audit_stream_resend"]),
    );
    expect(actions.every((row) => row.userId === admin.id)).toBe(true);
  });

  it("refuses a wrong origin, no session, a non-admin and bad input with Portuguese messages, changing nothing", async () => {
    const snapshot = JSON.stringify(await webhookState());
    expect((await api("POST", admin, { destination: "webhook", action: "pause" }, null)).status).toBe(403);
    expect((await api("POST", admin, { destination: "webhook", action: "pause" }, "http://evil.example")).status).toBe(403);
    expect((await api("POST", null, { destination: "webhook", action: "pause" })).status).toBe(401);
    expect((await api("GET", viewer)).status).toBe(403);
    expect((await api("POST", viewer, { destination: "webhook", action: "pause" })).status).toBe(403);
    const bad: unknown[] = [
      { destination: "webhook", action: "resend", from: "ontem" },
      { destination: "webhook", action: "resend", from: "99999999999999999999" },
      { destination: "webhook", action: "resend", from: "0" },
      { destination: "webhook", action: "resend" },
      { destination: "webhook", action: "explodir" },
      { destination: "__proto__", action: "pause" },
      '{"destination":"webhook","action":"pause","__proto__":{"x":1}}',
      { destination: "webhook", action: "pause", constructor: { prototype: 1 } },
      { destination: "webhook", action: "resend", from: "2026-01-01\u202e" },
      { destination: "webhook", action: "resend", from: "x".repeat(64 * 1024) },
      JSON.stringify({ destination: "webhook", action: "pause", x: "y".repeat(10 * 1024 * 1024) }),
      '{"destination":"webhook","action":"pause","x":' + "[".repeat(64) + "]".repeat(64) + "}",
      { destination: "webhook", action: "resend", from: "1e999" },
    ];
    for (const body of bad) {
      const response = await api("POST", admin, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(((await response.json()) as { error: string }).error).toMatch(/[a-zà-ú]/i);
    }
    // A destination not configured here.
    expect((await api("POST", admin, { destination: "syslog", action: "pause" })).status).toBe(404);
    const { lagSeconds: _a, lagEvents: _b, deliveredAt: _c, deliveredId: _d, headId: _e, delivering: _f, ...now } = await webhookState();
    const {
      lagSeconds: _g,
      lagEvents: _h,
      deliveredAt: _i,
      deliveredId: _j,
      headId: _k,
      delivering: _l,
      ...then
    } = JSON.parse(snapshot) as Record<string, unknown>;
    expect(now).toEqual(then);
  });

  it("50 pauses at once leave one consistent state", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => api("POST", admin, { destination: "webhook", action: index % 2 ? "pause" : "resume" })),
    );
    expect(answers.every((response) => response.status === 200)).toBe(true);
    expect((await api("POST", admin, { destination: "webhook", action: "resume" })).status).toBe(200);
    await writeRows(2);
    await caughtUp();
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());
  });

  it("the metric and /readyz show the lag", async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).not.toContain("aviso");
    // Move the cursor back before an old row (11 minutes old): a warning, not a failure.
    const [first] = await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id)).limit(1);
    await server.db
      .update(auditLogs)
      .set({ createdAt: Date.now() - 11 * 60_000 })
      .where(eq(auditLogs.id, first!.id));
    expect((await api("POST", admin, { destination: "webhook", action: "pause" })).status).toBe(200);
    expect((await api("POST", admin, { destination: "webhook", action: "resend", from: String(first!.id) })).status).toBe(200);
    await expect
      .poll(async () => (await fetch(`${server.url}/readyz`)).text(), { timeout: 5000, interval: 200 })
      .toMatch(/pronto\naviso: envio da auditoria \(webhook\) atrasado 1[01] min/);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const lag = Number(/^b1_audit_delivery_lag_seconds\{destination="webhook"\} (\S+)$/m.exec(metrics)?.[1]);
    expect(lag).toBeGreaterThan(600);
    expect((await api("POST", admin, { destination: "webhook", action: "resume" })).status).toBe(200);
    await caughtUp();
  });

  it.skipIf(!onPostgres)("the database cutting the server's connections mid-stream loses nothing", async () => {
    await writeRows(5);
    const cut = await server.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect(cut.rows.length).toBeGreaterThan(0);
    await writeRows(5);
    await caughtUp(20_000);
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());
  });

  it("a SIGKILL mid-batch: after the restart every row arrives, only the batch in flight twice", async () => {
    await caughtUp();
    const before = receiver.accepted().length;
    let hung = false;
    const victim = server.pid;
    receiver.respond = () => {
      if (hung) return { status: 200 };
      hung = true;
      // The receiver took the batch; the instance dies before any answer reaches it.
      process.kill(victim, "SIGKILL");
      return "hold";
    };
    await writeRows(8);
    await server.exited;
    const dataDir = server.dataDir;
    await server.stop({ keepData: true }).catch(() => undefined);
    server = await startBuiltServer(streamEnv(receiver.url), { dataDir, openOnly: true });
    await writeRows(3);
    await caughtUp(20_000);
    const after = receiver.accepted().slice(before);
    const ids = after.map((event) => event.id);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    // The batch the receiver took but the dead instance never saw acknowledged comes again, and nothing else.
    const held = receiver.requests.find((request) => request.status === "hold")!.events.map((event) => event.id);
    expect(repeated).toEqual(held);
    expect(firstArrivals(receiver.accepted())).toEqual(await allIds());
  });
});
