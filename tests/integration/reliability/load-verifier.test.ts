import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLoadCast, verifyLoad, type LoadCast, type LoadResult } from "../../../scripts/bench/load";
import { updateUserAsAdmin } from "../../../src/lib/server/admin/users";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

let dir: string;
let db: Db;
let cast: LoadCast;
let adminId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-verifier-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
  cast = await createLoadCast(db, 1, 2);
  adminId = (await createTestUser(db, ["admin"])).id;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const nothingAcknowledged = (): LoadResult =>
  ({ seconds: 0, stats: {}, ackedTrail: new Map(), ackedEdits: new Map(), ackedSignIns: new Map() }) as unknown as LoadResult;

describe("the load verifier", () => {
  // An aborted request is still running on the server when the load's promise settles: its edit
  // (name and roles in one transaction) commits while the verifier reads. Read one statement at a
  // time, the verifier saw the old name with the new roles and reported a half-applied edit that
  // never existed (CI, PostgreSQL pass). It must judge one consistent view of the database.
  it("never reports a half-applied edit while whole edits keep committing during its reads", { timeout: 60_000 }, async () => {
    let editing = true;
    const edits = cast.targets.map(async (target) => {
      for (let sequence = 1; editing; sequence++) {
        const roles = sequence % 2 === 0 ? ["visualizador"] : ["lider"];
        const result = await updateUserAsAdmin(db, target.id, { fullName: `Alvo ${sequence}`, roles }, { userId: adminId });
        if (!result.ok) throw new Error(`edição recusada: ${JSON.stringify(result)}`);
      }
    });
    const problems: string[] = [];
    try {
      for (let round = 0; round < 40; round++) problems.push(...(await verifyLoad(db, cast, nothingAcknowledged())));
    } finally {
      editing = false;
      await Promise.all(edits);
    }
    expect(problems).toEqual([]);
  });
});
