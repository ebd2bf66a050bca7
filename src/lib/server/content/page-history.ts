import fs from "node:fs";
import path from "node:path";
import { HISTORY_MANIFEST_FILE, type HistoryManifest, type PageHistory } from "../../content/page-history.ts";
import { distDir } from "../../settings.ts";

let loaded: HistoryManifest | undefined;

/** The build's page histories (dist/historico.json, written before the pages render); none before the first build. */
export function historyManifest(): HistoryManifest {
  if (!loaded) {
    const file = path.join(distDir(), HISTORY_MANIFEST_FILE);
    loaded = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as HistoryManifest) : { available: false, pages: [] };
  }
  return loaded;
}

export function pageHistory(pagePath: string): PageHistory | undefined {
  return historyManifest().pages.find((page) => page.path === pagePath);
}
