/** Types of private-dir.mjs (plain JS so scripts/run-script.mjs can import it without tsx). */
export class UnsafeCacheDirError extends Error {}
export function privateDir(dir: string, options?: { uid?: number | null }): string;
export function userCacheDir(sub?: string): string;
