/**
 * The search dialog's report to Insights: one beacon per finished search, never per keystroke. A
 * search is finished when its results were on screen for PAUSE_MS and then the person typed another
 * query, opened a result (sent with its position, whatever the pause) or closed the dialog / left the page.
 */
export const PAUSE_MS = 1500;

export interface SearchBeacon {
  consulta: string;
  resultados: number;
  aberto: number | null;
}

export interface SearchReporter {
  /** Results for `query` are on screen. */
  searched(query: string, results: number): void;
  /** The result at `position` (from 1) was opened. */
  opened(position: number): void;
  /** The dialog closed or the page is going away. */
  closed(): void;
}

/** Sends with navigator.sendBeacon (survives the navigation a result opens); same origin, session cookie. */
export function sendSearchBeacon(body: SearchBeacon): void {
  if (typeof navigator.sendBeacon !== "function") return;
  navigator.sendBeacon("/api/busca", new Blob([JSON.stringify(body)], { type: "application/json" }));
}

export function createSearchReporter(send: (body: SearchBeacon) => void = sendSearchBeacon, now: () => number = Date.now): SearchReporter {
  let current: { query: string; results: number; since: number } | null = null;
  const settled = () => current !== null && now() - current.since >= PAUSE_MS;
  return {
    searched(query, results) {
      const trimmed = query.trim();
      if (current && current.query === trimmed) {
        current.results = results;
        return;
      }
      if (current && settled()) send({ consulta: current.query, resultados: current.results, aberto: null });
      current = trimmed ? { query: trimmed, results, since: now() } : null;
    },
    opened(position) {
      if (current) send({ consulta: current.query, resultados: current.results, aberto: position });
      current = null;
    },
    closed() {
      if (current && settled()) send({ consulta: current.query, resultados: current.results, aberto: null });
      current = null;
    },
  };
}
