/**
 * The report's totals per required page and version: how many must read it and how many
 * confirmed, overall and per role. Counting reads every reader of every page (100,000 people ×
 * 50 pages is seconds), so totals are kept in memory per build and refreshed in the background
 * once older than TALLY_TTL_MS or after a confirmation: a request is answered from memory (a
 * stale total is shown with its time); with none yet, it waits at most FIRST_WAIT_MS and is then
 * told to come back. On SQLite the counting runs on a worker thread (reading-worker.ts), never on
 * the thread that serves requests. The list of people is never cached.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { count, eq, sql } from "drizzle-orm";
import { userRoles, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import { percentOf, type PageTally } from "../../reading/report.ts";
import type { RequiredPage } from "../../reading/required-page.ts";
import type { Db } from "../data/db.ts";
import { confirmedCondition, loadAccessData, mustReadCondition, type AccessData } from "./audience.ts";
import { config } from "../config/config.ts";
import { onPostgres } from "../data/dialect.ts";
import { readingManifest } from "./manifest.ts";

const TALLY_TTL_MS = 5 * 60_000;
/** How long a request waits for totals never counted before answering "come back shortly". */
export const FIRST_WAIT_MS = 5_000;

export interface TallyRequest {
  id: number;
  pagePath: string;
  version: number;
}

export type TallyReply = { id: number; ok: true; tally: PageTally } | { id: number; ok: false; message: string };

/** The bundled worker next to the gate, or its source when running unbuilt (tests, dev). */
function workerFile(): string {
  const built = path.resolve(process.env.B1_DIST_DIR ?? "dist", "gate", "reading-worker.mjs");
  return fs.existsSync(built) ? built : path.resolve("src/server/reading-worker.ts");
}

let worker: Worker | undefined;
const waiting = new Map<number, { resolve: (tally: PageTally) => void; reject: (error: Error) => void }>();
let nextId = 1;

function failWaiting(error: Error): void {
  for (const waiter of waiting.values()) waiter.reject(error);
  waiting.clear();
  worker = undefined;
}

/** Counts on the worker thread (started on first use, kept, never keeping the process alive). */
function countOnWorker(page: RequiredPage, version: number): Promise<PageTally> {
  if (!worker) {
    worker = new Worker(workerFile(), { workerData: { databasePath: config().databasePath } });
    worker.unref();
    worker.on("message", (reply: TallyReply) => {
      const waiter = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.tally);
      else waiter?.reject(new Error(reply.message));
    });
    worker.on("error", failWaiting);
    worker.on("exit", () => failWaiting(new Error("contador do relatório de leitura encerrado")));
  }
  const id = nextId++;
  const started = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    started.postMessage({ id, pagePath: page.path, version } satisfies TallyRequest);
  });
}

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
    .where(readers)
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
 * The tallies of `wanted` (page and version pairs), from memory when there; the stale ones are
 * counted again in the background, the missing ones now. Null when some were never counted and
 * the count did not end within `firstWaitMs` (it goes on: ask again shortly).
 */
export async function tallies(
  db: Db,
  wanted: readonly { page: RequiredPage; version: number }[],
  now = Date.now(),
  firstWaitMs = FIRST_WAIT_MS,
): Promise<PageTally[] | null> {
  const { buildId } = readingManifest();
  if (buildId !== cachedBuild) {
    entries.clear();
    cachedBuild = buildId;
  }
  let access: Promise<AccessData> | undefined;
  const count = (page: RequiredPage, version: number, entry: Entry) => {
    if (entry.counting) return entry.counting;
    const counting = onPostgres
      ? (access ??= loadAccessData(db)).then((data) => countTally(db, page, version, data))
      : countOnWorker(page, version);
    entry.counting = counting
      .then((tally) => {
        entry.tally = tally;
        entry.stale = false;
        return tally;
      })
      .finally(() => (entry.counting = undefined));
    return entry.counting;
  };
  const missing: Promise<PageTally>[] = [];
  for (const { page, version } of wanted) {
    const key = `${page.path}|${version}`;
    let entry = entries.get(key);
    if (!entry) entries.set(key, (entry = { stale: true }));
    if (!entry.tally) missing.push(count(page, version, entry));
    else if (entry.stale || now - entry.tally.calculadoEm > TALLY_TTL_MS) void count(page, version, entry).catch(() => undefined);
  }
  if (missing.length) {
    let timer: NodeJS.Timeout | undefined;
    const ready = await Promise.race([
      Promise.all(missing).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), firstWaitMs))),
    ]).finally(() => clearTimeout(timer));
    if (!ready) return null;
  }
  return wanted.map(({ page, version }) => entries.get(`${page.path}|${version}`)!.tally!);
}

/** A confirmation changes the totals: they are counted again at the next request (this process). */
export function markTalliesStale(): void {
  for (const entry of entries.values()) entry.stale = true;
}
