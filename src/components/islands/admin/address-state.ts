import { useEffect } from "react";

/**
 * The panel's state in the page's address (tab, user search, role filter, page), so that a reload,
 * a shared link and Back/Forward show what the admin was looking at. Read after the island has
 * hydrated (the server rendered the defaults), written with `replaceState` while typing and
 * `pushState` for a step the admin would go Back from (another tab, another page of the list).
 */
export function readAddress(name: string): string {
  return new URLSearchParams(window.location.search).get(name) ?? "";
}

/** Sets (or, when empty, removes) each parameter, keeping the others; nothing happens when the address would not change. */
export function writeAddress(values: Readonly<Record<string, string>>, mode: "push" | "replace"): void {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(values)) {
    if (value) url.searchParams.set(name, value);
    else url.searchParams.delete(name);
  }
  const address = `${url.pathname}${url.search}`;
  if (address === `${window.location.pathname}${window.location.search}`) return;
  if (mode === "push") window.history.pushState(null, "", address);
  else window.history.replaceState(null, "", address);
}

/** Runs `restore` once after hydration and again on every Back/Forward. */
export function useAddress(restore: () => void): void {
  useEffect(() => {
    restore();
    window.addEventListener("popstate", restore);
    return () => window.removeEventListener("popstate", restore);
    // `restore` reads the address and sets state: it is meant to be the one given at mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
