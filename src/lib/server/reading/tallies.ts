/**
 * The report's totals per required page and version: how many must read it and how many
 * confirmed, overall and per role. Counting reads every reader of every page (100,000 people ×
 * 50 pages is seconds), so totals are kept in memory per build and refreshed in the background
 * once older than TALLY_TTL_MS or after a confirmation: a request is answered from memory (a
 * stale total is shown with its time) and only the very first one waits. The list of people is
 * never cached.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { userRoles, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import { percentOf, type PageTally } from "../../reading/report.ts";
import type { RequiredPage } from "../../reading/required-page.ts";
import type { Db } from "../data/db.ts";
import { confirmedCondition, loadAccessData, mustReadCondition, type AccessData } from "./audience.ts";
import { readingManifest } from "./manifest.ts";

const TALLY_TTL_MS = 5 * 60_000;

interface Entry {
  tally?: PageTally;
  /** The count under way, shared by the requests that arrive meanwhile. */
  counting?: Promise<PageTally>;
  stale: boolean;
}

const entries = new Map<string, Entry>();
let cachedBuild = "";

/** Counts one page and version now (a few grouped queries over the page's readers). */
export async function countTally(db: Db, page: RequiredPage, version: number, access: AccessData, now = Date.now()): Promise<PageTally> {
  const readers = mustReadCondition(page, access);
  const confirmed = confirmedCondition(page.path, version);
  const confirmedCount = sql<number>`sum(case when ${confirmed} then 1 else 0 end)`;
  const [all] = await db.select({ n: count(), confirmed: confirmedCount }).from(users).where(readers);
  const byRole = await db
    .select({ roleId: userRoles.roleId, n: count(), confirmed: confirmedCount })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(readers))
    .groupBy(userRoles.roleId);
  const publico = Number(all?.n ?? 0);
  const confirmadas = Number(all?.confirmed ?? 0);
  const roleName = new Map(access.roles.map((role) => [role.id, role.name]));
  return {
    pagina: page.path,
    titulo: page.title,
    versao: version,
    versaoAtual: page.version,
    publico,
    confirmadas,
    pendentes: publico - confirmadas,
    percentual: percentOf(confirmadas, publico),
    perfis: byRole
      .map((row) => ({
        perfil: roleName.get(row.roleId) ?? String(row.roleId),
        rotulo: roleLabel(roleName.get(row.roleId) ?? ""),
        publico: Number(row.n),
        confirmadas: Number(row.confirmed ?? 0),
      }))
      .sort((a, b) => a.rotulo.localeCompare(b.rotulo, "pt-BR")),
    calculadoEm: now,
  };
}

/**
 * The tallies of `wanted` (page and version pairs), from memory when there; the missing ones are
 * counted now, the stale ones in the background. `access` is loaded only when something is counted.
 */
export async function tallies(db: Db, wanted: readonly { page: RequiredPage; version: number }[], now = Date.now()): Promise<PageTally[]> {
  const { buildId } = readingManifest();
  if (buildId !== cachedBuild) {
    entries.clear();
    cachedBuild = buildId;
  }
  let access: Promise<AccessData> | undefined;
  const count = (page: RequiredPage, version: number, entry: Entry) => {
    access ??= loadAccessData(db);
    entry.counting ??= access
      .then((data) => countTally(db, page, version, data))
      .then((tally) => {
        entry.tally = tally;
        entry.stale = false;
        return tally;
      })
      .finally(() => (entry.counting = undefined));
    return entry.counting;
  };
  const results: PageTally[] = [];
  for (const { page, version } of wanted) {
    const key = `${page.path}|${version}`;
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = { stale: true }));
    if (!entry.tally) {
      results.push(await count(page, version, entry));
      // Counting is a long synchronous read on SQLite: let other requests in between pages.
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    if (entry.stale || now - entry.tally.calculadoEm > TALLY_TTL_MS) void count(page, version, entry).catch(() => undefined);
    results.push(entry.tally);
  }
  return results;
}

/** A confirmation changes the totals: they are counted again at the next request (this process). */
export function markTalliesStale(): void {
  for (const entry of entries.values()) entry.stale = true;
}
