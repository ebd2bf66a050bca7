/**
 * The trail's copy in the browser, kept per account (`b1-trilha:<user id>:…`) so that on a shared
 * browser one person's answers are never shown to, or saved by, another.
 */
import { TRAIL_STORAGE_PREFIX, parseStoredTrail, serializeTrail, type TrailState } from "./trail.ts";
import { trailOwnerPrefix, type TrailStore } from "./forget.ts";

export { forgetTrailsExcept, type TrailStore } from "./forget.ts";

const ownKey = (owner: string, key: string) => trailOwnerPrefix(owner) + key.slice(TRAIL_STORAGE_PREFIX.length);

export function readOwnTrail(store: TrailStore, owner: string, phaseIds: readonly string[]): TrailState {
  return parseStoredTrail((key) => store.getItem(ownKey(owner, key)), phaseIds);
}

export function writeOwnTrail(store: TrailStore, owner: string, state: TrailState): void {
  for (const [key, value] of Object.entries(serializeTrail(state))) store.setItem(ownKey(owner, key), value);
}
