/**
 * Issue 64: the pages table's "Leitores distintos na semana" showed 0 for every row when all the reads
 * were of the current week: it counted the last complete week only, and said so nowhere. The report now
 * also gives this week's readers so far, each column naming its week.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { dayOf } from "../../../src/lib/server/insights/calendar";
import { emptyPending } from "../../../src/lib/server/insights/collector";
import { insightsReport } from "../../../src/lib/server/insights/report";
import { flushInsights } from "../../../src/lib/server/insights/store";
import { isoWeekOf } from "../../../src/lib/server/reading/digest-week";
import type { Principal } from "../../../src/lib/routes";
import { openOwnTestDatabase } from "../../support/users";

const TZ = "America/Sao_Paulo";
const ADMIN: Principal = { userId: "admin", email: "admin@b1.example.com", name: "Admin", roles: ["admin"], grantedPaths: new Set() };
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-insights-readers-week-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("distinct readers per page, by week", () => {
  it("counts this week's readers so far beside last week's, and names both weeks", async () => {
    // A Wednesday afternoon: this week has readers, last week none (a portal installed this week).
    const now = Date.parse("2026-12-09T18:00:00Z");
    const thisWeek = isoWeekOf(now, TZ);
    const batch = emptyPending();
    batch.reads.set(`/faq\u0000${dayOf(now, TZ)}\u0000*`, 25);
    batch.readers.set(`/faq\u0000${thisWeek}`, new Set(Array.from({ length: 12 }, (_, index) => `pessoa-${index}`)));
    await flushInsights(db, batch);

    const result = await insightsReport(db, ADMIN, { periodo: "30", perfil: "*" }, TZ, now);
    if (!result.ok) throw new Error(result.error);
    const { report } = result;
    expect(report.semanaCompleta).toBe("2026-W49");
    expect(report.semanaAtual).toBe("2026-W50");
    const faq = report.paginas.find((row) => row.pagina === "/faq")!;
    expect(faq.leituras).toBe(25);
    expect(faq.leitoresSemana).toBe(0);
    expect(Math.abs(faq.leitoresSemanaAtual - 12)).toBeLessThanOrEqual(1);
    expect(report.paginas.find((row) => row.pagina === "/glossario")!.leitoresSemanaAtual).toBe(0);
  });
});
