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
import { createRunnableDevEnvironment, type Plugin } from "vite";
import { CONTENT_MANIFEST_FILE, type ContentPageEntry } from "../../src/lib/content-manifest.ts";
import { DOWNLOADS_DIR, DOWNLOADS_DIST_DIR, DOWNLOADS_MANIFEST_FILE, type DownloadEntry } from "../../src/lib/content/downloads.ts";
import { NEWS_MANIFEST_FILE, type NewsManifest } from "../../src/lib/reading/news.ts";
import { READING_MANIFEST_FILE, type ReadingManifest } from "../../src/lib/reading/required-page.ts";
import { checkContent, formatProblem, PAGES_DIR, type ContentCheck } from "./check.ts";
import { CONTENT_GENERATION_SCRIPT, showContentProblemsInDev } from "./dev-feedback.ts";
import { OVERLAY_PT_SCRIPT } from "./overlay-pt.ts";
import { contentCommits, contentNews, historyAvailable, prefetchFiles } from "./news.ts";
import { pageHistories } from "./page-history.ts";
import { HISTORY_MANIFEST_FILE, type HistoryManifest } from "../../src/lib/content/page-history.ts";
import { readPageHistorySettings } from "../../src/lib/server/config/page-history.ts";
import { readingHistory } from "./reading-history.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { mdxSyntaxProblem } from "./mdx-syntax.ts";

/** The name of no loader: `refreshContent` with it runs none and only saves the store. */
const NO_LOADER = "b1-nenhum-loader";

/**
 * `astro dev` renders pages in Vite's module runners, which by default turn on Node's source maps: Node
 * then parses the inline source map of every module the runner evaluates, ~40 ms of each render after a
 * save (the runner evaluates the store's importers again). The runners map an error's stack themselves
 * instead, when one is read ("prepareStackTrace"): the same file:line, paid only on an error.
 */
function lazyServerSourceMaps(): Plugin {
  return {
    name: "b1-lazy-server-source-maps",
    apply: "serve",
    configEnvironment(name, options) {
      if (name === "client" || options.dev?.createEnvironment) return;
      return {
        dev: {
          createEnvironment: (environmentName, config) =>
            createRunnableDevEnvironment(environmentName, config, { runnerOptions: { sourcemapInterceptor: "prepareStackTrace" } }),
        },
      };
    },
  };
}

/**
 * `astro dev`: an MDX file that does not compile fails with the content check's Portuguese words and
 * its `content/…:linha:coluna` (in the browser's overlay and the terminal) before Astro's MDX
 * plugin would fail with the compiler's English and no path ("Unexpected Application Error!").
 */
function mdxSyntaxInDev(root: string): Plugin {
  return {
    name: "b1-mdx-syntax",
    apply: "serve",
    enforce: "pre",
    transform: {
      filter: { id: /\.mdx$/ },
      handler(code, id) {
        const file = path.relative(root, id.split("?")[0]!).split(path.sep).join("/");
        const { body, bodyStartLine } = splitFrontmatter(code);
        const problem = mdxSyntaxProblem(file, body, bodyStartLine);
        if (!problem) return null;
        const error = new Error(formatProblem(problem)) as Error & { loc?: unknown; hint?: string; title?: string };
        error.name = "Conteúdo com problemas";
        error.title = "MDX com problema";
        error.hint = "Corrija e salve o arquivo: a página se atualiza sozinha. A mesma mensagem sai em npm run content:check.";
        error.loc = { file: id, line: problem.line, column: problem.column ?? 1 };
        throw error;
      },
    },
  };
}

/**
 * Writes under another name, then renames: every start of vitest or of the dev server writes the
 * manifests again (same content) while servers of the build may be reading them — `npm test` runs
 * its SQLite and PostgreSQL lanes side by side — and a reader must never see a half-written file.
 */
export function writeFileAtomic(file: string, text: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, text);
  fs.renameSync(partial, file);
}

function writeManifest(outDir: string, pages: readonly ContentPageEntry[]): void {
  fs.mkdirSync(outDir, { recursive: true });
  writeFileAtomic(path.join(outDir, CONTENT_MANIFEST_FILE), JSON.stringify({ pages }, null, 2) + "\n");
}

function writeReadingManifests(outDir: string, reading: ReadingManifest, news: NewsManifest, history: HistoryManifest): void {
  writeFileAtomic(path.join(outDir, READING_MANIFEST_FILE), JSON.stringify(reading) + "\n");
  writeFileAtomic(path.join(outDir, NEWS_MANIFEST_FILE), JSON.stringify(news) + "\n");
  writeFileAtomic(path.join(outDir, HISTORY_MANIFEST_FILE), JSON.stringify(history) + "\n");
}

/** The content changes for /novidades and every page's history, from one read of the git log. */
export function contentHistory(root: string, pages: readonly ContentPageEntry[], reading: ReadingManifest) {
  const settings = readPageHistorySettings();
  const available = historyAvailable(root);
  const commits = available ? contentCommits(root) : null;
  prefetchFiles(
    root,
    (commits ?? []).flatMap(({ commit, files }) => files.flatMap((file) => [[commit, file] as const, [`${commit}^`, file] as const])),
  );
  const news = contentNews(root, pages, reading.pages, commits ?? []);
  return { news, history: pageHistories(root, commits, available && commits !== null, pages, news, settings.hideAuthors) };
}

/** Copies the offered files out of reach of the public folder (dist/arquivos) and lists them with the pages that show them. */
function writeDownloads(root: string, outDir: string, downloads: readonly DownloadEntry[]): void {
  const target = path.join(outDir, DOWNLOADS_DIST_DIR);
  fs.mkdirSync(target, { recursive: true });
  for (const { file } of downloads) fs.copyFileSync(path.join(root, DOWNLOADS_DIR, file), path.join(target, file));
  writeFileAtomic(path.join(outDir, DOWNLOADS_MANIFEST_FILE), JSON.stringify({ downloads }, null, 2) + "\n");
}

export function contentPages(): AstroIntegration {
  /** The check made when `astro dev` starts, handed to the watcher that repeats it on every save. */
  let devStart: { root: string; outDir: string; check: ContentCheck } | undefined;
  return {
    name: "b1-content-pages",
    hooks: {
      "astro:server:setup": ({ server, logger, refreshContent }) => {
        if (!devStart) return;
        const { root, outDir, check } = devStart;
        showContentProblemsInDev({
          server,
          root,
          logger,
          writeManifest: (pages) => writeManifest(outDir, pages),
          // A sync of no loader only writes Astro's store now, instead of after its 500 ms debounce.
          flushContentStore: () => refreshContent?.({ loaders: [NO_LOADER] }),
          initialProblems: check.problems,
          initialPages: check.pages,
        });
      },
      "astro:config:setup": ({ command, config, updateConfig, injectScript, logger }) => {
        if (command !== "build" && command !== "dev") return;
        const root = fileURLToPath(config.root);
        const outDir = fileURLToPath(config.outDir);
        const check = checkContent(root);
        const { pages, downloads } = check;
        const reading = readingHistory(root, check.required);
        const problems = [...check.problems, ...reading.problems];
        if (command === "dev") {
          devStart = { root, outDir, check };
          injectScript("page", OVERLAY_PT_SCRIPT);
          injectScript("page", CONTENT_GENERATION_SCRIPT);
          updateConfig({ vite: { plugins: [lazyServerSourceMaps(), mdxSyntaxInDev(root)] } });
        }
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
        writeManifest(outDir, pages);
        const { news, history } = contentHistory(root, pages, reading.manifest);
        writeReadingManifests(outDir, reading.manifest, news, history);
        if (!history.available) {
          logger.info(
            "Histórico indisponível nesta instalação: cópia sem o histórico do git (clone raso ou arquivo compactado); as páginas de histórico dizem isso.",
          );
        }
        if (command === "build") writeDownloads(root, outDir, downloads);
        logger.info(`${pages.length} página(s) escritas em MDX (content/paginas e content/guias)`);
      },
    },
  };
}
