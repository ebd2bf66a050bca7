/**
 * The reading status behind the header count, the home's 'Pendências de leitura' and the page's
 * 'Li e entendi'. It is asked for by the page's script (never by the gate's page path) and kept in
 * memory per person and access set, so page views cost one map lookup: dropped when the person
 * confirms, on a new build (another build id) and after STATUS_TTL_MS, which bounds how long
 * another instance (PostgreSQL) may show a count from before a confirmation made elsewhere.
 */
import { accessSignature, type Principal } from "../../routes.ts";
import { readingStatusOf, type Confirmation, type ReadingStatus } from "../../reading/pending.ts";
import { readingManifest } from "./manifest.ts";

const STATUS_TTL_MS = 30_000;
const MAX_PEOPLE = 50_000;

interface Cached {
  buildId: string;
  at: number;
  status: ReadingStatus;
}

/** userId → access signature → status. */
const cache = new Map<string, Map<string, Cached>>();

const accessKey = (principal: Principal): string => accessSignature(principal);

/** The reading status of `principal`, from memory when still valid. `load` reads their confirmations. */
export async function readingStatusFor(
  principal: Principal,
  load: (userId: string) => Promise<readonly Confirmation[]>,
  now = Date.now(),
): Promise<ReadingStatus> {
  const manifest = readingManifest();
  const key = accessKey(principal);
  const hit = cache.get(principal.userId)?.get(key);
  if (hit && hit.buildId === manifest.buildId && now - hit.at < STATUS_TTL_MS) return hit.status;
  const status = manifest.pages.length
    ? readingStatusOf(manifest.pages, principal, await load(principal.userId))
    : { pendentes: 0, paginas: [] };
  if (cache.size >= MAX_PEOPLE) cache.clear();
  let entries = cache.get(principal.userId);
  if (!entries) cache.set(principal.userId, (entries = new Map()));
  entries.set(key, { buildId: manifest.buildId, at: now, status });
  return status;
}

/** Drops what this process remembers of a person's status (after they confirm a page). */
export function forgetReadingStatus(userId: string): void {
  cache.delete(userId);
}
