/**
 * The periodic clean-up (maintenance.ts) runs while the audit stream's loops keep short
 * transactions open on the same SQLite connection (the bench showed "comando fora da transação
 * aberta na mesma conexão SQLite" from the rate-limit prune): each prune is a statement of its own
 * transaction, queued behind the open one, on both engines.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimLease, destinationStates, ensureDestination } from "../../../src/lib/server/audit/stream/state";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { pruneInsights } from "../../../src/lib/server/insights/retention";
import { pruneRememberedDevices } from "../../../src/lib/server/sessions/remembered-device";
import { pruneRateLimits } from "../../../src/lib/server/throttle/rate-limit";
import { openOwnTestDatabase } from "../../support/users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-maint-stream-"));
let db: Db;
beforeAll(async () => {
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  await ensureDestination(db, "webhook");
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("maintenance while the audit stream delivers", () => {
  it("the rate-limit, remembered-device and insights prunes never run outside the stream's open transaction", async () => {
    for (let round = 0; round < 20; round++) {
      // What a delivery loop does on each turn, at the same time as the clean-up.
      const stream = Promise.all([claimLease(db, "webhook", "dono", 5000), destinationStates(db, ["webhook"])]);
      await expect(
        Promise.all([pruneRateLimits(db), pruneRememberedDevices(db), pruneInsights(db, 30, "America/Sao_Paulo"), stream]),
      ).resolves.toBeDefined();
    }
  });
});
