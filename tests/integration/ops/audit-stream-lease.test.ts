/**
 * Two instances on one PostgreSQL database stream the audit log (issue 45): exactly one delivers
 * (the lease), and when it is killed the other takes over well within 30 s, losing nothing.
 * PostgreSQL pass only: on SQLite the portal is one process by design.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { auditDestinations, auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { leaseLookMs } from "../../../src/lib/server/audit/stream/deliverer";
import { readConfig } from "../../../src/lib/server/config/config";
import { firstArrivals, startAuditReceiver, type AuditReceiver } from "../../support/audit-receiver";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";

const SECRET = "whsec_" + Buffer.from("segredo-de-teste-do-webhook-b1-lease-0123").toString("base64");
/** Long enough that a holder stalled by a loaded machine (its lease renewed every poll) keeps it; short enough to show the takeover. */
const LEASE_MS = 5000;
/** The ten takeovers' lease: short, so they fit in a minute; each held to the default's share of 10 s. */
const TAKEOVER_LEASE_MS = 3000;

describe.skipIf(!onPostgres)("audit streaming with two instances", () => {
  let receiver: AuditReceiver;
  const servers: RunningServer[] = [];
  const receivers: AuditReceiver[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await receiver?.close();
    for (const other of receivers) await other.close();
  });

  it("one instance delivers; killing it moves delivery to the other within 30 s, nothing lost", async () => {
    receiver = await startAuditReceiver(SECRET, await freePort());
    const url = (await freshDatabaseUrl())!;
    const env = {
      AUDIT_WEBHOOK_URL: receiver.url,
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_TIMEOUT_MS: "500",
      AUDIT_STREAM_POLL_MS: "50",
      AUDIT_STREAM_LEASE_MS: String(LEASE_MS),
    };
    for (let index = 0; index < 2; index++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-lease-"));
      fs.writeFileSync(path.join(dataDir, "database-url"), url);
      servers.push(await startBuiltServer(env, { dataDir }));
    }
    const [a] = servers as [RunningServer, RunningServer];
    const write = async (count: number) => {
      for (let index = 0; index < count; index++) await writeAuditLog(a.db, { actionType: "page_access_granted", result: "success" });
    };
    const lastId = async () => (await a.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)?.id ?? 0;
    const delivered = () => Math.max(0, ...receiver.accepted().map((event) => event.id));

    await write(20);
    const wanted = await lastId();
    await expect.poll(delivered, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(wanted);
    // One instance at a time: every batch so far came from the lease holder.
    const [lease] = await a.db.select().from(auditDestinations);
    const holder = servers.find((server) => lease!.leaseOwner!.includes(`:${server.pid}:`))!;
    const other = servers.find((server) => server !== holder)!;
    expect(new Set(receiver.accepted().map((event) => event.instance))).toEqual(new Set([expect.stringMatching(`:${holder.pid}$`)]));

    process.kill(holder.pid, "SIGKILL");
    await holder.exited;
    const killedAt = Date.now();
    await write(10);
    const after = await lastId();
    await expect.poll(delivered, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(after);
    const takeover = Date.now() - killedAt;
    expect(takeover).toBeLessThan(30_000);
    // Within the lease, not just within 30 s: the lease is what moves it. The other instance tries to take it
    // every leaseLookMs, so its first try after the lease ran out may come that much later; 2 s more for the
    // ten rows' writing and delivery on a loaded machine (CI once measured 7.2 s against lease + 2 s).
    expect(takeover).toBeLessThan(LEASE_MS + leaseLookMs(LEASE_MS) + 2000);
    const late = receiver.accepted().filter((event) => event.id > wanted);
    expect(late.every((event) => event.instance.endsWith(`:${other.pid}`))).toBe(true);
    const ids = (await a.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).map((row) => row.id);
    expect(firstArrivals(receiver.accepted())).toEqual(ids);
  });

  it("moves delivery within 10 s of a holder's death at the default lease, 10 times in a row", { timeout: 240_000 }, async () => {
    // The promise is stated for the default lease (10 s at most); the test runs a shorter lease and
    // holds each takeover to the same share of it, so ten takeovers fit in a minute.
    const defaultLeaseMs = readConfig({}).auditStream.leaseMs;
    const bound = (10_000 / defaultLeaseMs) * TAKEOVER_LEASE_MS;
    const own = await startAuditReceiver(SECRET, await freePort());
    receivers.push(own);
    const url = (await freshDatabaseUrl())!;
    const env = {
      AUDIT_WEBHOOK_URL: own.url,
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_TIMEOUT_MS: "500",
      AUDIT_STREAM_POLL_MS: "50",
      AUDIT_STREAM_LEASE_MS: String(TAKEOVER_LEASE_MS),
    };
    const start = async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-lease-"));
      fs.writeFileSync(path.join(dataDir, "database-url"), url);
      const server = await startBuiltServer(env, { dataDir });
      servers.push(server);
      return server;
    };
    const live = [await start(), await start()];
    const writer = live[0]!.db;
    const write = async () => {
      await writeAuditLog(writer, { actionType: "page_access_granted", result: "success" });
      return (await writer.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)!.id;
    };
    const delivered = () => Math.max(0, ...own.accepted().map((event) => event.id));
    const takeovers: number[] = [];
    for (let round = 0; round < 10; round++) {
      // Delivery is running (its holder renews every poll) before the holder dies.
      const before = await write();
      await expect.poll(delivered, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(before);
      const [lease] = await writer.select().from(auditDestinations);
      const holder = live.find((server) => lease!.leaseOwner!.includes(`:${server.pid}:`))!;
      process.kill(holder.pid, "SIGKILL");
      await holder.exited;
      const killedAt = Date.now();
      const after = await write();
      await expect.poll(delivered, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(after);
      takeovers.push(Date.now() - killedAt);
      // The instance left takes over; a new one joins for the next round.
      live.splice(live.indexOf(holder), 1, await start());
    }
    console.log(
      `arrendamento de ${TAKEOVER_LEASE_MS} ms (padrão ${defaultLeaseMs} ms): 10 tomadas em ${takeovers.join(", ")} ms; ` +
        `a maior, ${Math.max(...takeovers)} ms = ${(Math.max(...takeovers) / TAKEOVER_LEASE_MS).toFixed(2)} do arrendamento ` +
        `(${(((Math.max(...takeovers) / TAKEOVER_LEASE_MS) * defaultLeaseMs) / 1000).toFixed(1)} s no padrão; limite ${(bound / 1000).toFixed(2)} s aqui, 10 s no padrão)`,
    );
    for (const takeover of takeovers) expect(takeover).toBeLessThanOrEqual(bound);
    expect(firstArrivals(own.accepted())).toEqual(
      (await writer.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).map((row) => row.id),
    );
  });
});
