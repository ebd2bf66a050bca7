/**
 * Astro integration: before the build (and when `astro dev` starts) it checks the content and
 * writes the content-page manifest into dist/, which the route module reads, and the
 * required-reading manifest (versions and changed sections from git, see reading-history.ts) and
 * the content changes for /novidades (news.ts). The build stops on
 * any problem, naming file, line and field in Portuguese.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { CONTENT_MANIFEST_FILE, type ContentPageEntry } from "../../src/lib/content-manifest.ts";
import { READING_MANIFEST_FILE, type ReadingManifest } from "../../src/lib/reading/required-page.ts";
import { checkContent, formatProblem, PAGES_DIR } from "./check.ts";
import { readingHistory } from "./reading-history.ts";
import { contentNews } from "./news.ts";
import { NEWS_MANIFEST_FILE, type NewsManifest } from "../../src/lib/reading/news.ts";

function writeManifests(outDir: string, pages: readonly ContentPageEntry[], reading: ReadingManifest, news: NewsManifest): void {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, CONTENT_MANIFEST_FILE), JSON.stringify({ pages }, null, 2) + "\n");
  fs.writeFileSync(path.join(outDir, READING_MANIFEST_FILE), JSON.stringify(reading) + "\n");
  fs.writeFileSync(path.join(outDir, NEWS_MANIFEST_FILE), JSON.stringify(news) + "\n");
}

export function contentPages(): AstroIntegration {
  return {
    name: "b1-content-pages",
    hooks: {
      "astro:config:setup": ({ command, config, updateConfig, logger }) => {
        if (command !== "build" && command !== "dev") return;
        const root = fileURLToPath(config.root);
        const outDir = fileURLToPath(config.outDir);
        const checked = checkContent(root);
        const { pages } = checked;
        const reading = readingHistory(root, checked.required);
        const problems = [...checked.problems, ...reading.problems];
        if (problems.length) {
          const report = problems.map(formatProblem).join("\n");
          if (command === "build") throw new Error(`Conteúdo com problemas (rode npm run content:check):\n${report}`);
          logger.error(`Conteúdo com problemas:\n${report}`);
        }
        if (command === "build") {
          // The manifest must survive until the pages are rendered, so dist/ is cleared here, not by Vite.
          fs.rmSync(outDir, { recursive: true, force: true });
          updateConfig({ vite: { build: { emptyOutDir: false } } });
        }
        writeManifests(outDir, pages, reading.manifest, contentNews(root, pages, reading.manifest.pages));
        logger.info(`${pages.length} página(s) escritas em MDX (content/paginas e content/guias)`);
      },
    },
  };
}
