/**
 * Page history as the build publishes it (dist/historico.json): for every content page, its versions
 * newest first, each with the page's readable sections at that version (texts stored once per page),
 * so any two versions can be compared in the browser without git. Shared by the build, the
 * prerendered /historico pages and their comparison island.
 */

/** One section of a page at one version: [key, title, index of its text in `PageHistory.texts`]. */
export type HistorySection = readonly [key: string, title: string, text: number];

export interface HistoryVersion {
  /** The commit's first 12 hex digits. */
  id: string;
  /** ISO 8601 date of the commit. */
  date: string;
  /** The editor's name as git records it; absent when HISTORY_HIDE_AUTHORS hides names. */
  author?: string;
  /** The commit's `Novidade:` line, a required page's summary, or what changed by section. */
  summary: string;
  sections: HistorySection[];
}

export interface PageHistory {
  /** The page's route, e.g. /faq. */
  path: string;
  title: string;
  /** The page's source files (the first one is linked by 'Editar esta página'). */
  files: string[];
  /** Newest first; empty when the installation has no history. */
  versions: HistoryVersion[];
  texts: string[];
}

export interface HistoryManifest {
  /** False for a shallow clone or a tarball: the pages say the history is not available. */
  available: boolean;
  pages: PageHistory[];
}

export const HISTORY_MANIFEST_FILE = "historico.json";
export const HISTORY_PREFIX = "/historico";
export const HISTORY_UNAVAILABLE = "Histórico indisponível nesta instalação";

/** The history page of a content page: /historico/faq for /faq. */
export function historyPath(pagePath: string): string {
  return `${HISTORY_PREFIX}${pagePath}`;
}

/** The content page a history path is about (/historico/faq → /faq), or null. */
export function pageOfHistoryPath(path: string): string | null {
  return path.startsWith(`${HISTORY_PREFIX}/`) && path.length > HISTORY_PREFIX.length + 1 ? path.slice(HISTORY_PREFIX.length) : null;
}
