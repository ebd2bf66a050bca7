/**
 * The audit stream's lease during a send (issue 63): the holder renews it while a request is in
 * flight, so a receiver slower than the lease keeps one sender (the lease can be short, and a dead
 * holder's destination moves quickly); and a holder that cannot renew — here another instance took
 * the lease — cuts its send, so two instances never send at once. Two delivery loops on one database.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDestinations } from "../../../db/schema/index";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { startAuditStream, type AuditStream } from "../../../src/lib/server/audit/stream/deliverer";
import { readConfig } from "../../../src/lib/server/config/config";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { openOwnTestDatabase } from "../../support/users";

const SECRET = "whsec_" + Buffer.alloc(32, 9).toString("base64");
const LEASE_MS = 1000;

interface Arrival {
  instance: string;
  startedAt: number;
  endedAt: number | null;
  /** Whether the sender closed the connection before the answer. */
  cut: boolean;
}

/** A receiver that answers each request after `delayMs`, recording when each began and ended. */
async function slowReceiver(delayMs: () => number) {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { events: { instance: string }[] } };
      const arrival: Arrival = { instance: body.data.events[0]!.instance, startedAt: Date.now(), endedAt: null, cut: false };
      arrivals.push(arrival);
      const timer = setTimeout(() => {
        arrival.endedAt = Date.now();
        res.end("ok");
      }, delayMs());
      res.on("close", () => {
        if (arrival.endedAt !== null) return;
        clearTimeout(timer);
        arrival.cut = true;
        arrival.endedAt = Date.now();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The most requests in flight at once. */
function overlap(arrivals: readonly Arrival[]): number {
  let most = 0;
  for (const arrival of arrivals) {
    const end = arrival.endedAt ?? Infinity;
    most = Math.max(
      most,
      arrivals.filter(
        (other) => other.startedAt <= arrival.startedAt && (other.endedAt ?? Infinity) > arrival.startedAt && other.startedAt < end,
      ).length,
    );
  }
  return most;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-lease-renewal-"));
let db: Db;
const quiet = { warn: () => undefined };
beforeAll(async () => {
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A webhook at `url` whose timeout is well past the lease: only the lease's renewal can cut a send. */
function streamSettings(url: string) {
  return readConfig({
    AUDIT_WEBHOOK_URL: url,
    AUDIT_WEBHOOK_SECRET: SECRET,
    AUDIT_WEBHOOK_TIMEOUT_MS: String(10 * LEASE_MS),
    AUDIT_STREAM_LEASE_MS: String(LEASE_MS),
    AUDIT_STREAM_POLL_MS: "20",
  }).auditStream;
}

describe("the audit stream's lease during a send", () => {
  it("a receiver slower than the lease keeps one sender, and the slow batch is delivered once", { timeout: 20_000 }, async () => {
    const receiver = await slowReceiver(() => 3 * LEASE_MS);
    const settings = streamSettings(receiver.url);
    const streams: AuditStream[] = [];
    try {
      await writeAuditLog(db, { actionType: "page_access_granted", result: "success" });
      streams.push(await startAuditStream(db, settings, quiet), await startAuditStream(db, settings, quiet));
      await expect
        .poll(() => receiver.arrivals.some((arrival) => arrival.endedAt !== null && !arrival.cut), { timeout: 15_000 })
        .toBe(true);
      expect(overlap(receiver.arrivals)).toBe(1);
      expect(receiver.arrivals).toHaveLength(1);
    } finally {
      for (const stream of streams) await stream.stop();
      await receiver.close();
    }
  });

  it("a holder that cannot renew cuts its send before another instance could send", { timeout: 20_000 }, async () => {
    const receiver = await slowReceiver(() => 9 * LEASE_MS);
    const settings = streamSettings(receiver.url);
    const stream = await startAuditStream(db, settings, quiet);
    try {
      await writeAuditLog(db, { actionType: "page_access_granted", result: "success" });
      await expect.poll(() => receiver.arrivals.length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Another instance takes the lease (as after a database blip that outlasted it).
      await db
        .update(auditDestinations)
        .set({ leaseOwner: "outra-instancia", leaseUntil: Date.now() + 60_000 })
        .where(eq(auditDestinations.name, "webhook"));
      // Cut long before the receiver's answer (9 leases) or the request's timeout (10).
      await expect.poll(() => receiver.arrivals[0]!.cut, { timeout: 6 * LEASE_MS }).toBe(true);
      const lastError = async () => (await db.select().from(auditDestinations).where(eq(auditDestinations.name, "webhook")))[0]!.lastError;
      await expect.poll(lastError, { timeout: 5_000 }).toMatch(/arrendamento do destino não pôde ser renovado/);
      expect(receiver.arrivals).toHaveLength(1);
    } finally {
      await stream.stop();
      await receiver.close();
    }
  });
});
