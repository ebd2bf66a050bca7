import fs from "node:fs";
import path from "node:path";
import type { NewsItem } from "../../src/lib/reading/news";
import type { ReadingManifest, RequiredPage } from "../../src/lib/reading/required-page";

/** A required page as a build would publish it, at `version` with one summary per version. */
export function requiredPage(pagePath: string, title: string, version: number, roles?: RequiredPage["roles"]): RequiredPage {
  const versions = Array.from({ length: version }, (_, index) => ({
    version: index + 1,
    summary: `Resumo da versão ${index + 1} de ${title}.`,
    date: new Date(Date.UTC(2026, index, 10)).toISOString(),
  }));
  return {
    path: pagePath,
    title,
    file: "content/sobre/sobre-b1.mdx",
    kind: "mdx",
    version,
    summary: versions.at(-1)!.summary,
    ...(roles ? { roles } : {}),
    versions,
    changesSince: {},
  };
}

/**
 * A copy of the built site (`dist/`) whose required-reading manifest lists `pages`; pass it as
 * B1_DIST_DIR. It lives under test-results/ so its server bundle still finds node_modules.
 */
export function distWithRequiredPages(pages: RequiredPage[], buildId = "teste", news: NewsItem[] = []): string {
  fs.mkdirSync("test-results", { recursive: true });
  const dir = fs.mkdtempSync(path.join("test-results", "reading-dist-"));
  fs.cpSync("dist", dir, { recursive: true });
  const manifest: ReadingManifest = { buildId, pages };
  fs.writeFileSync(path.join(dir, "reading.json"), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, "novidades.json"), JSON.stringify({ items: news }));
  return dir;
}
