const CANONICAL = /^\/(?:[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*)?(?:\/[A-Za-z0-9_-]+\.(?!html$)[A-Za-z0-9]+)?$/;

/**
 * Normalises a request path once, before any access decision: decoded a single time,
 * backslashes and duplicate slashes folded, `.`/`..` resolved, trailing slash and a final
 * `/index.html` removed. Returns null for paths that cannot be decoded or contain NUL.
 */
export function normalizePath(rawPath: string): string | null {
  // Hot path: an already-canonical path (no escapes, dots, backslashes, repeated or trailing slash).
  if (CANONICAL.test(rawPath)) return rawPath;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const segments: string[] = [];
  for (const segment of decoded.replaceAll("\\", "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  if (segments.at(-1) === "index.html") segments.pop();
  return "/" + segments.join("/");
}

/**
 * Keeps a post-sign-in target only when it is a same-origin path. The URL is resolved first
 * (dot segments, `%2e`, backslashes, tabs and newlines all fold there), then the result must not
 * start with `//` or `/\\`, which a browser would read as another host.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/")) return "/";
  try {
    const url = new URL(next, "http://b1.invalid");
    if (url.origin !== "http://b1.invalid") return "/";
    const target = url.pathname + url.search + url.hash;
    return target.startsWith("//") || target.startsWith("/\\") ? "/" : target;
  } catch {
    return "/";
  }
}

/** Longest encoded request target a redirect repeats in `next=`, so a Location header never carries more than ~1 KB of what the visitor sent. */
export const MAX_NEXT_TARGET = 1024;

/** The encoded `next=` value of a redirect that should come back to `path` + `query`; a query that would pass MAX_NEXT_TARGET is dropped. */
export function nextTarget(path: string, query: string): string {
  const target = encodeURIComponent(path + query);
  return target.length <= MAX_NEXT_TARGET ? target : encodeURIComponent(path);
}
