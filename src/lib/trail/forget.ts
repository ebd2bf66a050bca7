/**
 * The trail's browser-storage prefix and the wiping of entries by account. Kept apart from the
 * trail's logic so that the sign-out on every page carries only these few lines.
 */
export const TRAIL_STORAGE_PREFIX = "b1-trilha:";

export type TrailStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** The key prefix of one account's entries. */
export const trailOwnerPrefix = (owner: string) => `${TRAIL_STORAGE_PREFIX}${owner}:`;

/** Drops every trail entry that is not `owner`'s (all of them for `null`), older unkeyed ones included. */
export function forgetTrailsExcept(store: TrailStore, owner: string | null): void {
  const keep = owner === null ? null : trailOwnerPrefix(owner);
  const doomed: string[] = [];
  for (let index = 0; index < store.length; index++) {
    const key = store.key(index);
    if (key?.startsWith(TRAIL_STORAGE_PREFIX) && !(keep && key.startsWith(keep))) doomed.push(key);
  }
  for (const key of doomed) store.removeItem(key);
}
