/**
 * Audit destinations set in the admin panel (issue 64), on the built server, both engines: an admin adds a
 * webhook (the portal generates its secret, shown once), the running delivery thread picks it up without a
 * restart, "Enviar evento de teste" shows the receiver's answer, the secret rotates with a grace period in
 * which both sign, the address changes, the destination pauses and is removed; every change is audited with
 * no secret in it and no API ever returns one. Then the attacks: SSRF addresses (when saved and at each
 * connection), an environment-set destination locked, no key, prototype keys, oversized and nested bodies,
 * control and bidi characters, non-admins, a foreign origin, 50 parallel identical creates, a database that
 * stops answering mid-step.
 */
import Database from "better-sqlite3";
import { and, eq } from "drizzle-orm";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDestinations, auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { sealSecret } from "../../../src/lib/server/audit/stream/panel";
import { startAuditReceiver, type AuditReceiver } from "../../support/audit-receiver";
import { lastAuditId } from "../../support/audit-stream";
import { onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const KEY = "7a".repeat(32);
const FAST = { AUDIT_STREAM_POLL_MS: "50", AUDIT_STREAM_LEASE_MS: "3000", AUDIT_STREAM_BACKOFF_MS: "40", AUDIT_DESTINATION_KEY: KEY };

let receiver: AuditReceiver;
let other: AuditReceiver;
let server: RunningServer;
let admin: TestUser;
let viewer: TestUser;
let security: TestUser;

function api(target: RunningServer, method: string, who: TestUser | null, body?: unknown, origin: string | null = target.url) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (origin) headers.origin = origin;
  if (who) headers.cookie = `b1_session=${who.token}`;
  return fetch(`${target.url}/api/admin/integracoes`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const post = (body: unknown, who: TestUser | null = admin, target = server) => api(target, "POST", who, body);

async function views(target = server, who = admin) {
  const response = await api(target, "GET", who);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, list: (JSON.parse(text) as { destinations: Record<string, unknown>[] }).destinations };
}

async function writeRows(count: number, target = server) {
  for (let index = 0; index < count; index++)
    await writeAuditLog(target.db, { actionType: "page_access_granted", result: "success", details: { path: `/painel${index}` } });
}

/** Until `into` accepted (verified) the newest audit row. */
async function arrives(into: AuditReceiver, target = server) {
  await expect
    .poll(
      async () => {
        const head = await lastAuditId(target);
        return into.requests.some((request) => request.verified && request.events.some((event) => event.id >= head));
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(true);
}

async function destinationRow(target = server, name = "webhook") {
  return (await target.db.select().from(auditDestinations).where(eq(auditDestinations.name, name)))[0];
}

async function auditRowsOf(prefix: string, target = server) {
  return (await target.db.select().from(auditLogs)).filter((row) => row.actionType.startsWith(prefix));
}

beforeAll(async () => {
  receiver = await startAuditReceiver("", await freePort());
  other = await startAuditReceiver("", await freePort());
  server = await startBuiltServer({ ...FAST, AUDIT_DESTINATIONS_ALLOW_PRIVATE: "true" });
  admin = await createTestUser(server.db, ["admin"], "admin-destinos");
  viewer = await createTestUser(server.db, ["visualizador"], "leitor-destinos");
  security = await createTestUser(server.db, ["security"], "seguranca-destinos");
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await other?.close();
});

describe("audit destinations from the admin panel", () => {
  let secret = "";

  it("adds a webhook: the secret is shown once, never again, stored sealed; the running thread delivers signed, no restart", async () => {
    expect((await views()).list).toEqual([]);
    const created = await post({ destination: "webhook", action: "create", url: receiver.url });
    expect(created.status).toBe(200);
    const body = (await created.json()) as { secret: string; message: string };
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secret = body.secret;
    receiver.setSecret(secret);

    await writeRows(3);
    await arrives(receiver);
    expect(receiver.requests.filter((request) => request.events.length > 0).every((request) => request.verified)).toBe(true);

    const { text, list } = await views();
    expect(list).toMatchObject([{ name: "webhook", target: receiver.url, lockedBy: null, paused: false }]);
    for (const part of [secret, secret.slice(6)]) expect(text).not.toContain(part);
    const row = (await destinationRow())!;
    expect(row.secretSealed).not.toContain(secret.slice(6, 20));
    expect(row.secretSealed!.split(".")).toHaveLength(3);
  });

  it("'Enviar evento de teste' answers the receiver's status and a short excerpt, and is audited", async () => {
    const response = await post({ destination: "webhook", action: "test" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { test: { ok: boolean; status: number; excerpt: string } };
    expect(body.test).toEqual({ ok: true, status: 200, excerpt: "ok" });
    const testRequest = receiver.requests.find((request) => request.raw.includes('"b1.audit.test"'))!;
    expect(testRequest.verified).toBe(true);

    // Only the test event (id 0) is refused: a batch of audit rows answered 418 would stop the destination.
    receiver.respond = ({ events }) => (events[0]?.id === 0 ? { status: 418 } : { status: 200 });
    const refused = (await (await post({ destination: "webhook", action: "test" })).json()) as { test: { ok: boolean; status: number } };
    receiver.respond = () => ({ status: 200 });
    expect(refused.test).toMatchObject({ ok: false, status: 418 });
    expect((await auditRowsOf("audit_destination_tested")).length).toBe(2);
  });

  it("rotates the secret: during the grace period both sign (two v1 signatures); with no grace only the new one", async () => {
    /** Rotates, then the newest batch verified with the new secret (one read before the loop saw the rotation may go first, old-signed). */
    const rotate = async (graceHours: number) => {
      const rotated = await post({ destination: "webhook", action: "rotate", graceHours });
      expect(rotated.status).toBe(200);
      const text = ((await rotated.json()) as { secret: string }).secret;
      receiver.setSecret(text);
      const from = receiver.requests.length;
      await writeRows(2);
      await arrives(receiver);
      const newest = receiver.requests
        .slice(from)
        .filter((candidate) => candidate.verified && candidate.events.length > 0)
        .at(-1)!;
      return { text, request: newest };
    };
    const { text: fresh, request } = await rotate(2);
    expect(fresh).not.toBe(secret);
    const signatures = String(request.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    // A receiver still holding the old secret verifies, as one holding the new one does.
    const headers = request.headers as Record<string, string>;
    expect(() => new Webhook(secret).verify(request.raw, headers)).not.toThrow();
    expect(() => new Webhook(fresh).verify(request.raw, headers)).not.toThrow();
    expect((await views()).list[0]!.previousSecretUntil).toBeGreaterThan(Date.now());

    const noGrace = await rotate(0);
    secret = noGrace.text;
    expect(String(noGrace.request.headers["webhook-signature"]).split(" ")).toHaveLength(1);
  });

  it("a new address moves delivery there on the running thread; pause holds it; resume catches up", async () => {
    other.setSecret(secret);
    expect((await post({ destination: "webhook", action: "update", url: other.url })).status).toBe(200);
    await writeRows(2);
    await arrives(other);
    expect((await views()).list[0]!.target).toBe(other.url);

    expect((await post({ destination: "webhook", action: "pause" })).status).toBe(200);
    const pausedAt = await lastAuditId(server);
    const count = other.requests.length;
    await writeRows(2);
    await expect.poll(async () => (await views()).list[0]!.lagEvents, { timeout: 5000, interval: 50 }).toBeGreaterThanOrEqual(2);
    expect(other.requests.slice(count).flatMap((request) => request.events.filter((event) => event.id > pausedAt))).toEqual([]);
    expect((await post({ destination: "webhook", action: "resume" })).status).toBe(200);
    await arrives(other);
  });

  it("removes it: every loop lets it go, the tab is empty again; each change was audited before → after, no secret", async () => {
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(200);
    expect(await destinationRow()).toBeUndefined();
    expect((await views()).list).toEqual([]);
    const count = other.requests.length + receiver.requests.length;
    await writeRows(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(other.requests.length + receiver.requests.length).toBe(count);
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(404);

    const rows = await auditRowsOf("audit_destination_");
    const types = rows.map((row) => row.actionType);
    for (const type of ["created", "updated", "secret_rotated", "removed", "tested"]) expect(types).toContain(`audit_destination_${type}`);
    expect(rows.every((row) => row.userId === admin.id)).toBe(true);
    const updated = JSON.parse(rows.find((row) => row.actionType === "audit_destination_updated")!.actionDetails!) as Record<
      string,
      { url: string; secret: string }
    >;
    expect(updated.before!.url).toBe(receiver.url);
    expect(updated.after!.url).toBe(other.url);
    expect(updated.after!.secret).toBe("[oculto]");
    const all = rows.map((row) => row.actionDetails).join("\n");
    for (const part of [secret, secret.slice(6), secret.slice(6, 26)]) expect(all).not.toContain(part);
  });

  it("a destination removed and added again between two looks of a loop (same version number) goes to the new address", async () => {
    const created = await post({ destination: "webhook", action: "create", url: receiver.url });
    const first = ((await created.json()) as { secret: string }).secret;
    receiver.setSecret(first);
    await writeRows(1);
    await arrives(receiver);
    // Remove and add again as one step seen by the loops: the new row has the version number the old one had.
    const fresh = Buffer.alloc(32, 7);
    other.setSecret(`whsec_${fresh.toString("base64")}`);
    const old = (await destinationRow())!;
    await server.db.transaction(async (tx) => {
      await tx.delete(auditDestinations).where(eq(auditDestinations.name, "webhook"));
      await tx.insert(auditDestinations).values({
        name: "webhook",
        url: other.url,
        secretSealed: sealSecret(Buffer.from(KEY, "hex"), "webhook", fresh),
        configVersion: old.configVersion,
        deliveredId: old.deliveredId,
        updatedAt: Date.now(),
      });
    });
    const count = receiver.requests.length;
    await writeRows(2);
    await arrives(other);
    expect(receiver.requests.length).toBe(count);
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(200);
  });

  it("a syslog collector is added, tested and removed the same way (no secret)", async () => {
    const collector = (await import("node:net")).createServer((socket) => {
      socket.on("data", () => undefined);
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const url = `tcp://127.0.0.1:${(collector.address() as import("node:net").AddressInfo).port}`;
    try {
      const created = await post({ destination: "syslog", action: "create", url });
      expect(created.status).toBe(200);
      expect((await created.json()) as object).not.toHaveProperty("secret");
      const tested = (await (await post({ destination: "syslog", action: "test" })).json()) as { test: { ok: boolean } };
      expect(tested.test.ok).toBe(true);
      expect((await post({ destination: "syslog", action: "rotate" })).status).toBe(400);
      expect((await post({ destination: "syslog", action: "remove" })).status).toBe(200);
    } finally {
      collector.close();
    }
  });
});

describe("attacks on the destinations API", () => {
  it("refuses non-admins (reader, security role), no session and a foreign or missing origin, changing nothing", async () => {
    const create = { destination: "webhook", action: "create", url: receiver.url };
    expect((await api(server, "GET", viewer)).status).toBe(403);
    expect((await post(create, viewer)).status).toBe(403);
    expect((await post(create, security)).status).toBe(403);
    expect((await post(create, null)).status).toBe(401);
    expect((await api(server, "POST", admin, create, null)).status).toBe(403);
    expect((await api(server, "POST", admin, create, "http://evil.example")).status).toBe(403);
    expect(await destinationRow()).toBeUndefined();
  });

  it("bad bodies and addresses get a Portuguese 4xx and change nothing", async () => {
    const bad: unknown[] = [
      '{"destination":"webhook","action":"create","url":"http://127.0.0.1:9/x","__proto__":{"x":1}}',
      { destination: "webhook", action: "create", url: "http://127.0.0.1:9/x", constructor: { prototype: { a: 1 } } },
      { destination: "__proto__", action: "create", url: "http://127.0.0.1:9/x" },
      { destination: "webhook", action: "constructor" },
      { destination: "webhook", action: "create", url: "http://127.0.0.1:9/" + "a".repeat(64 * 1024 - 1) },
      { destination: "webhook", action: "create", url: "http://127.0.0.1:9/" + "a".repeat(64 * 1024 + 1) },
      JSON.stringify({ destination: "webhook", action: "create", url: "x".repeat(10 * 1024 * 1024) }),
      '{"destination":"webhook","action":"create","url":' + "[".repeat(5000) + "]".repeat(5000) + "}",
      { destination: "webhook", action: "rotate", graceHours: 1e308 },
      '{"destination":"webhook","action":"rotate","graceHours":1e999}',
      { destination: "webhook", action: "rotate", graceHours: 2 ** 53 + 1 },
      { destination: "webhook", action: "rotate", graceHours: -1 },
      { destination: "webhook", action: "rotate", graceHours: 1.5 },
      { destination: "webhook", action: "create", url: "http://127.0.0.1:9/\u202eexe.x" },
      { destination: "webhook", action: "create", url: "http://127.0.0.1:9/a\u0000b" },
      { destination: "webhook", action: "create", url: "http://127.0.0.1\u200b:9/x" },
      { destination: "webhook", action: "create", url: "http://exаmple.com/x" },
      { destination: "webhook", action: "create", url: "ftp://coletor.example.com/x" },
      { destination: "webhook", action: "create", url: "file:///etc/passwd" },
      { destination: "webhook", action: "create", url: "gopher://127.0.0.1:70/x" },
      { destination: "webhook", action: "create", url: "tls://127.0.0.1:6514" },
      { destination: "webhook", action: "create", url: "http://user:senha@127.0.0.1:9/x" },
      { destination: "syslog", action: "create", url: "udp://127.0.0.1:514" },
      { destination: "syslog", action: "create", url: "tcp://127.0.0.1" },
      { destination: "syslog", action: "create", url: "https://127.0.0.1:514/x" },
      { destination: "webhook", action: "create" },
      { destination: "webhook", action: "create", url: 42 },
      { destination: "webhook", action: "create", url: ["http://127.0.0.1:9/x"] },
      { destination: "webhook", action: "update", url: "http://127.0.0.1:9/x" },
      { destination: "webhook", action: "test" },
    ];
    for (const body of bad) {
      const response = await post(body);
      const label = (typeof body === "string" ? body : JSON.stringify(body)).slice(0, 90);
      expect(response.status, label).toBeGreaterThanOrEqual(400);
      expect(response.status, label).toBeLessThan(500);
      expect(((await response.json()) as { error: string }).error, label).toMatch(/[a-zà-ú]{3}/i);
    }
    expect(await destinationRow()).toBeUndefined();
    expect(await destinationRow(server, "syslog")).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("a redirect is never followed, a receiver's hostile answer is cut and cleaned, 50 parallel tests run one at a time", async () => {
    const created = await post({ destination: "webhook", action: "create", url: receiver.url });
    receiver.setSecret(((await created.json()) as { secret: string }).secret);
    const before = receiver.requests.length;
    const otherBefore = other.requests.length;
    receiver.respond = ({ events }) =>
      events[0]?.id === 0 ? { status: 302, headers: { location: `${other.url}?seguiu=1` } } : { status: 200 };
    const redirected = (await (await post({ destination: "webhook", action: "test" })).json()) as { test: { ok: boolean; status: number } };
    expect(redirected.test).toMatchObject({ ok: false, status: 302 });
    expect(other.requests.length).toBe(otherBefore);

    receiver.respond = ({ events }) =>
      events[0]?.id === 0 ? { status: 200, body: "\u001b[31mvermelho\u202e\u0000fim" + "x".repeat(10 * 1024 * 1024) } : { status: 200 };
    const hostile = (await (await post({ destination: "webhook", action: "test" })).json()) as { test: { excerpt: string } };
    expect(hostile.test.excerpt.length).toBeLessThanOrEqual(300);
    expect(hostile.test.excerpt).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(hostile.test.excerpt).toMatch(/^\[31mvermelho fim/);

    receiver.respond = () => ({ status: 200 });
    const tests = await Promise.all(Array.from({ length: 50 }, () => post({ destination: "webhook", action: "test" })));
    const statuses = tests.map((response) => response.status);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses).toContain(200);
    const sent = receiver.requests.slice(before).filter((request) => request.raw.includes("b1.audit.test")).length;
    expect(sent).toBe(2 + statuses.filter((status) => status === 200).length);
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(200);
  });

  it("50 parallel identical creates make one destination, one audit row, one secret shown", async () => {
    const before = (await auditRowsOf("audit_destination_created")).length;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post({ destination: "webhook", action: "create", url: receiver.url })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    expect((await auditRowsOf("audit_destination_created")).length - before).toBe(1);
    expect((await views()).list).toHaveLength(1);
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(200);
  });

  it("a database that stops answering mid-step answers 503 in Portuguese and writes nothing; then it works", async () => {
    const create = { destination: "webhook", action: "create", url: receiver.url };
    let release: () => Promise<void>;
    if (onPostgres) {
      const client = new pg.Client({ connectionString: server.databaseEnv.DATABASE_URL! });
      await client.connect();
      await client.query("begin; lock table audit_destinations in access exclusive mode");
      release = async () => {
        await client.query("rollback");
        await client.end();
      };
    } else {
      const holder = new Database(server.databaseEnv.DATABASE_PATH!);
      holder.exec("begin exclusive");
      release = async () => {
        holder.exec("rollback");
        holder.close();
      };
    }
    let response: Response;
    try {
      response = await post(create);
    } finally {
      await release();
    }
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toMatch(/[a-zà-ú]{3}/i);
    expect(await destinationRow()).toBeUndefined();
    expect((await post(create)).status).toBe(200);
    expect((await post({ destination: "webhook", action: "remove" })).status).toBe(200);
  });
});

describe("SSRF, the environment's lock and the key", () => {
  let guarded: RunningServer;
  let guardedAdmin: TestUser;
  beforeAll(async () => {
    // No AUDIT_DESTINATIONS_ALLOW_PRIVATE; the syslog destination set by the environment.
    guarded = await startBuiltServer({ ...FAST, AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${await freePort()}` });
    guardedAdmin = await createTestUser(guarded.db, ["admin"], "admin-ssrf");
  });
  afterAll(async () => {
    await guarded?.stop();
  });

  it("refuses loopback, link-local, metadata, private ranges and names resolving to them, with the reason", async () => {
    const inside = [
      "http://127.0.0.1/x",
      "http://127.1/x",
      "http://2130706433/x",
      "http://0x7f000001/x",
      "http://localhost:8080/x",
      "http://0.0.0.0/x",
      "http://[::]/x",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/x",
      "http://[fd00:ec2::254]/x",
      "http://10.1.2.3/x",
      "http://172.20.0.1/x",
      "http://192.168.0.10/x",
      "http://100.100.100.200/x",
      "https://[fc00::1]/x",
    ];
    for (const url of inside) {
      const response = await post({ destination: "webhook", action: "create", url }, guardedAdmin, guarded);
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as { error: string }).error, url).toMatch(/rede interna/);
    }
    expect(await destinationRow(guarded)).toBeUndefined();
  });

  it("checks every address at send time: a stored inside address (a name rebound to 127.0.0.1) is stopped, nothing sent", async () => {
    const target = await startAuditReceiver("", await freePort());
    try {
      const port = new URL(target.url).port;
      await guarded.db.insert(auditDestinations).values({
        name: "webhook",
        url: `http://localhost:${port}/hook`,
        secretSealed: sealSecret(Buffer.from(KEY, "hex"), "webhook", Buffer.alloc(32, 1)),
        configVersion: 1,
        updatedAt: Date.now(),
      });
      await writeRows(1, guarded);
      await expect
        .poll(async () => (await destinationRow(guarded))?.stoppedReason ?? "", { timeout: 10_000, interval: 50 })
        .toMatch(/rede interna/);
      const tested = (await (await post({ destination: "webhook", action: "test" }, guardedAdmin, guarded)).json()) as {
        test: { ok: boolean; excerpt: string };
      };
      expect(tested.test.ok).toBe(false);
      expect(tested.test.excerpt).toMatch(/rede interna/);
      expect(target.requests).toEqual([]);
    } finally {
      await guarded.db.delete(auditDestinations).where(and(eq(auditDestinations.name, "webhook")));
      await target.close();
    }
  });

  it("a destination set by the environment is read-only in the panel, with the variable's name", async () => {
    const { list } = await views(guarded, guardedAdmin);
    expect(list.find((item) => item.name === "syslog")).toMatchObject({ lockedBy: "AUDIT_SYSLOG_URL" });
    for (const action of ["create", "update", "remove"]) {
      const response = await post({ destination: "syslog", action, url: "tcp://coletor.example.com:514" }, guardedAdmin, guarded);
      expect(response.status, action).toBe(409);
      expect(((await response.json()) as { error: string }).error).toContain("AUDIT_SYSLOG_URL");
    }
    // Pausing an environment destination still works (as before).
    expect((await post({ destination: "syslog", action: "pause" }, guardedAdmin, guarded)).status).toBe(200);
  });

  it("without AUDIT_DESTINATION_KEY, storing a destination is refused with the reason", async () => {
    const keyless = await startBuiltServer({ AUDIT_DESTINATIONS_ALLOW_PRIVATE: "true" });
    try {
      const keylessAdmin = await createTestUser(keyless.db, ["admin"], "admin-sem-chave");
      const response = await post({ destination: "webhook", action: "create", url: receiver.url }, keylessAdmin, keyless);
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: string }).error).toContain("AUDIT_DESTINATION_KEY");
      expect(await destinationRow(keyless)).toBeUndefined();
      // One stored before the key was taken away: shown as not delivered, with the reason (not "Enviando").
      await keyless.db
        .insert(auditDestinations)
        .values({ name: "webhook", url: receiver.url, secretSealed: "x.y.z", updatedAt: Date.now() });
      const { list } = await views(keyless, keylessAdmin);
      expect(list).toHaveLength(1);
      expect(String(list[0]!.stoppedReason)).toContain("AUDIT_DESTINATION_KEY");
    } finally {
      await keyless.stop();
    }
  });
});

describe("two instances on one database", () => {
  it("a change made through one instance is picked up by the other's running delivery thread, no restart", async () => {
    const env = { ...FAST, AUDIT_DESTINATIONS_ALLOW_PRIVATE: "true" };
    const a = await startBuiltServer(env);
    const b = await startBuiltServer(env, { dataDir: a.dataDir });
    const first = await startAuditReceiver("", await freePort());
    const second = await startAuditReceiver("", await freePort());
    try {
      const adminA = await createTestUser(a.db, ["admin"], "admin-duas-a");
      const created = await post({ destination: "webhook", action: "create", url: first.url }, adminA, a);
      const secretText = ((await created.json()) as { secret: string }).secret;
      first.setSecret(secretText);
      second.setSecret(secretText);
      await writeRows(2, a);
      await arrives(first, a);
      expect((await post({ destination: "webhook", action: "update", url: second.url }, adminA, a)).status).toBe(200);
      // A stops (its lease is given up): only B delivers now, to the address changed through A.
      await a.stop({ keepData: true });
      const count = first.requests.length;
      await writeRows(3, b);
      await arrives(second, b);
      expect(first.requests.length).toBe(count);
    } finally {
      await b.stop();
      await a.stop().catch(() => undefined);
      await first.close();
      await second.close();
    }
  });
});
