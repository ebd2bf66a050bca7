import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index.ts";
import { auditFilterSchema, queryAuditLogs } from "../../../src/lib/server/audit/query";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { openOwnTestDatabase } from "../../support/users";

let dir: string;
let db: Db;

const at = (iso: string) => new Date(iso).getTime();
const STAMPS = [
  "2026-03-09T14:59:59.999Z",
  "2026-03-09T15:00:00.000Z",
  "2026-03-10T14:59:59.999Z",
  "2026-03-10T15:00:00.000Z",
  "2026-06-30T22:59:59.999Z",
  "2026-06-30T23:00:00.000Z",
  "2026-07-01T22:59:59.999Z",
  "2026-07-01T23:00:00.000Z",
];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-tz-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
  for (const stamp of STAMPS) {
    await db
      .insert(auditLogs)
      .values({ createdAt: at(stamp), actionType: "tz_probe", result: "success", actionDetails: JSON.stringify({ stamp }) });
  }
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function stampsBetween(from: string, to: string, timeZone: string): Promise<string[]> {
  const filter = auditFilterSchema.parse({ action: "tz_probe", from, to });
  return (await queryAuditLogs(db, filter, timeZone)).rows.map((row) => new Date(row.createdAt).toISOString()).sort();
}

describe("audit date filters follow TZ_DISPLAY", () => {
  it("a day in Asia/Tokyo (UTC+9) starts and ends at that zone's midnight", async () => {
    expect(await stampsBetween("2026-03-10", "2026-03-10", "Asia/Tokyo")).toEqual(["2026-03-09T15:00:00.000Z", "2026-03-10T14:59:59.999Z"]);
  });

  it("a summer day in Europe/Lisbon uses its daylight-saving offset (UTC+1)", async () => {
    expect(await stampsBetween("2026-07-01", "2026-07-01", "Europe/Lisbon")).toEqual([
      "2026-06-30T23:00:00.000Z",
      "2026-07-01T22:59:59.999Z",
    ]);
  });

  it("a date-time without an offset is read in the display zone; one with an offset is kept", async () => {
    expect(await stampsBetween("2026-03-10T00:00", "2026-03-10T23:59:59.999", "Asia/Tokyo")).toEqual([
      "2026-03-09T15:00:00.000Z",
      "2026-03-10T14:59:59.999Z",
    ]);
    expect(await stampsBetween("2026-03-09T15:00:00Z", "2026-03-09T15:00:00Z", "Asia/Tokyo")).toEqual(["2026-03-09T15:00:00.000Z"]);
  });

  it("an impossible date is refused with a Portuguese message instead of being ignored", () => {
    for (const bad of ["2026-02-30", "ontem", "2026-13-01", "2026-03-10T25:00"]) {
      const parsed = auditFilterSchema.safeParse({ from: bad });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("Data inválida: use o formato AAAA-MM-DD.");
    }
  });
});
