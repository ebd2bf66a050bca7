/**
 * The trail's copy in the browser, kept per account (`b1-trilha:<user id>:…`) so that on a shared
 * browser one person's answers are never shown to, or saved by, another.
 */
import { TRAIL_STORAGE_PREFIX, parseStoredTrail, serializeTrail, type TrailState } from "./trail.ts";

export type TrailStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

const ownerPrefix = (owner: string) => `${TRAIL_STORAGE_PREFIX}${owner}:`;
const ownKey = (owner: string, key: string) => ownerPrefix(owner) + key.slice(TRAIL_STORAGE_PREFIX.length);

export function readOwnTrail(store: TrailStore, owner: string, phaseIds: readonly string[]): TrailState {
  return parseStoredTrail((key) => store.getItem(ownKey(owner, key)), phaseIds);
}

export function writeOwnTrail(store: TrailStore, owner: string, state: TrailState): void {
  for (const [key, value] of Object.entries(serializeTrail(state))) store.setItem(ownKey(owner, key), value);
}

/** Drops every trail entry that is not `owner`'s (all of them for `null`), older unkeyed ones included. */
export function forgetTrailsExcept(store: TrailStore, owner: string | null): void {
  const keep = owner === null ? null : ownerPrefix(owner);
  const doomed: string[] = [];
  for (let index = 0; index < store.length; index++) {
    const key = store.key(index);
    if (key?.startsWith(TRAIL_STORAGE_PREFIX) && !(keep && key.startsWith(keep))) doomed.push(key);
  }
  for (const key of doomed) store.removeItem(key);
}
