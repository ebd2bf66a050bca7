/**
 * 'O que mudou desde a sua última visita' (issue 66): the browser remembers, per content page, the id of
 * the newest version the reader saw (localStorage, nothing sent to the server). When the page has a newer
 * version, the notice links to the history's comparison of the two.
 */

/** One key for every page: `{ "/faq": "9fa80ca9dbe0", … }`, bounded by the number of content pages. */
export const LAST_VISIT_KEY = "b1-versao-vista";
/** Never more pages than this are remembered (the oldest entries leave first). */
const MAX_PAGES = 200;

type Seen = Record<string, string>;

function read(storage: Storage): Seen {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(LAST_VISIT_KEY) ?? "{}");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const seen: Seen = Object.create(null) as Seen;
    for (const [page, id] of Object.entries(parsed)) if (typeof id === "string" && /^[0-9a-f]{12}$/.test(id)) seen[page] = id;
    return seen;
  } catch {
    return {};
  }
}

/**
 * Records that the reader saw `newest` of `page`; answers the version they had seen before when it is
 * an older version of this page (listed in `versions`), else null (first visit, same version, unknown id).
 */
export function visitPage(storage: Storage, page: string, newest: string, versions: readonly string[]): string | null {
  const seen = read(storage);
  const before = Object.hasOwn(seen, page) ? seen[page]! : null;
  delete seen[page];
  seen[page] = newest;
  const pages = Object.keys(seen);
  for (const old of pages.slice(0, Math.max(0, pages.length - MAX_PAGES))) delete seen[old];
  try {
    storage.setItem(LAST_VISIT_KEY, JSON.stringify(seen));
  } catch {
    // Storage full or refused (private mode): the notice just does not come next time.
  }
  return before !== null && before !== newest && versions.includes(before) ? before : null;
}

/** Wires the notice rendered by SinceLastVisit.astro. */
export function startLastVisit(): void {
  const notice = document.querySelector<HTMLElement>("[data-ultima-visita]");
  if (!notice) return;
  const { pagina = "", historico = "", versoes = "" } = notice.dataset;
  const versions = versoes.split(",").filter(Boolean);
  const newest = versions[0];
  if (!newest) return;
  let before: string | null = null;
  try {
    before = visitPage(window.localStorage, pagina, newest, versions);
  } catch {
    return; // no localStorage
  }
  if (!before) return;
  const link = notice.querySelector<HTMLAnchorElement>("a");
  if (link) link.href = `${historico}?de=${before}&para=${newest}#comparar`;
  notice.hidden = false;
}
