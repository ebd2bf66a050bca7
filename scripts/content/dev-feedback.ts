/**
 * `astro dev`: runs the same checks as `npm run content:check` on every save under content/ and shows
 * the problems in the browser (Astro's error overlay, in Portuguese, with file:line) until they are
 * fixed; a fix reloads the page. A change in the content pages (a new page, a title, a menu entry)
 * rewrites the page manifest and re-runs the route table, so the menu follows without a restart.
 */
import fs from "node:fs";
import path from "node:path";
import { isRunnableDevEnvironment, type RunnableDevEnvironment, type ViteDevServer } from "vite";
import type { AstroIntegrationLogger } from "astro";
import { manifestGeneration, type ContentPageEntry } from "../../src/lib/content-manifest.ts";
import { checkContent, formatProblem, type Problem } from "./check.ts";
import { onContentStoreChange, type ChangedStore } from "./store-changes.ts";

/** How long a file seen empty is given to be filled before it is checked (and how often a new page's listing is looked for). */
const SETTLE_MS = 50;
/** How often a file seen empty is looked at again: it is checked once it has the same size twice. */
const FILLED_POLL_MS = 5;

/** How long a fix waits for Astro's own reload before reloading the page itself. */
const FALLBACK_RELOAD_MS = 600;
/**
 * How long after a loader's last change to Astro's content store the store is written: a loader storing
 * a file's entries one by one (a YAML list) has stored them all by then.
 */
const STORED_SETTLE_MS = 5;
/**
 * How long after a save's check Astro's content store is written when no loader has changed it by then
 * (the same text saved again, or a fix back to the stored text); its loader reads the file in ~10 ms
 * here. A loader later than this still has its change written at once (LATE_STORE_MS).
 */
const FLUSH_MS = 30;
/** How long after a save a change to the store is still that save's, written at once. */
const LATE_STORE_MS = 2_000;
/** Astro's virtual module of the content store, as its dev environments name it. */
const DATA_STORE_MODULE = "\0astro:data-layer-content";
/** What Astro sends to its server environments once it has invalidated its store module (store written). */
const CONTENT_CHANGED = "astro:content-changed";
/**
 * The longest Vite's reload for a saved content file is held waiting for Astro's store to be written
 * (a loader's change is written ~10–30 ms after the save here; a save that leaves the store as it was
 * writes nothing, and an added file waits for Astro's own sync: their reload waits the whole hold).
 */
const HOLD_MS = 120;
/** How long after a file's last change event it is compared with what it was then (written again: Astro is told again). */
const REPEAT_MS = 150;
/** How long a new page's menu entry waits for Astro to list the page among the modules it can render. */
const RENDER_LIST_WAIT_MS = 10_000;

/** What a page tells the dev server once its live connection is up: the menu's content generation it was rendered with. */
const GENERATION_EVENT = "b1:conteudo";
/** How many reloads one content generation may ask for (a page that keeps rendering an older menu is not reloaded forever). */
const GENERATION_RELOADS = 5;

/**
 * The page script `astro dev` injects: a page rendered before a new page's menu entry was published (its
 * request was under way when the reload went out, and that reload reached no page) says which menu it
 * has once it is connected, and is reloaded when that menu is not the current one.
 */
export const CONTENT_GENERATION_SCRIPT = `
const generation = document.querySelector('meta[name="b1-conteudo"]')?.content;
if (generation && import.meta.hot) import.meta.hot.send(${JSON.stringify(GENERATION_EVENT)}, generation);
`;

/** B1_DEV_TRACE=1: each step of a save, in ms after its file event, in the dev server's log. */
const TRACE = Boolean(process.env.B1_DEV_TRACE);
let traceStart = 0;
const trace = (step: string) => {
  if (TRACE) console.log(`[b1-dev-trace] +${(performance.now() - traceStart).toFixed(1)} ms ${step}`);
};

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The overlay's payload. Astro re-dresses error payloads not marked as already prepared; this one is final. */
function overlayPayload(root: string, problems: readonly Problem[]) {
  const first = problems[0]!;
  return {
    type: "error" as const,
    err: {
      name: "Conteúdo com problemas",
      title: `${problems.length} problema(s) no conteúdo`,
      message: problems.map((problem) => escapeHtml(formatProblem(problem))).join("<br>"),
      hint: "Corrija e salve o arquivo: esta mensagem some sozinha e a página se atualiza. As mesmas mensagens saem em <code>npm run content:check</code>.",
      stack: "",
      loc: { file: path.join(root, first.file), line: first.line },
    },
    __isEnhancedAstroErrorPayload: true,
    b1Content: true,
  };
}

/**
 * Astro, on each write of its content store, invalidates the store module and (through Vite) everything
 * importing it in the server's module graph, but in the module runner only the store module itself: the
 * runner learns that `astro/dist/content/data-store.js` (which keeps the loaded store in its
 * `globalDataStore` singleton), `runtime.js`, `astro:content` and the pages must run again only by
 * finding their transform results gone on the server. Astro's dev CSS module of a page
 * (`vite-plugin-css`, `ensureModulesLoaded`) transforms those same modules again on the server, outside
 * the runner: when a request in flight loads it between the write and the runner's next look at the page,
 * the runner is told "cached" and serves the old store for good (4 of 10 dev starts here, polling every
 * 100 ms). So here the runner forgets, at the same moment, every module the server forgot.
 */
function rerunStoreImporters(server: ViteDevServer): void {
  for (const environment of Object.values(server.environments)) {
    if (!isRunnableDevEnvironment(environment)) continue;
    const hot = environment.hot;
    const send = hot.send.bind(hot) as (...args: unknown[]) => void;
    hot.send = ((...args: unknown[]) => {
      if (args[0] === CONTENT_CHANGED) forgetStoreImporters(environment);
      return send(...args);
    }) as typeof hot.send;
  }
}

function forgetStoreImporters(environment: RunnableDevEnvironment): void {
  const store = environment.moduleGraph.getModuleById(DATA_STORE_MODULE);
  if (!store) return;
  // Not as a hot update (as Astro does): a load of the store module already under way, which may have
  // read the old file, must not be kept as its result.
  environment.moduleGraph.invalidateModule(store, undefined, undefined, false);
  const evaluated = environment.runner.evaluatedModules;
  const pending = [store];
  const seen = new Set(pending);
  for (let node = pending.pop(); node; node = pending.pop()) {
    const runnerNode = node.id ? evaluated.getModuleById(node.id) : undefined;
    if (runnerNode) evaluated.invalidateModule(runnerNode);
    for (const importer of node.importers) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      pending.push(importer);
    }
  }
}

/** Marks a module and everything that imports it (in the server-side runners too) to be run again. */
function invalidateWithImporters(server: ViteDevServer, file: string): void {
  for (const environment of Object.values(server.environments)) {
    for (const module of environment.moduleGraph.getModulesByFile(file) ?? []) environment.moduleGraph.invalidateModule(module);
    if (!isRunnableDevEnvironment(environment)) continue;
    const evaluated = environment.runner.evaluatedModules;
    const pending = [...(evaluated.getModulesByFile(file) ?? [])];
    const seen = new Set(pending);
    for (let node = pending.pop(); node; node = pending.pop()) {
      for (const id of node.importers) {
        const importer = evaluated.getModuleById(id);
        if (importer && !seen.has(importer)) {
          seen.add(importer);
          pending.push(importer);
        }
      }
      evaluated.invalidateModule(node);
    }
  }
}

export interface DevFeedbackOptions {
  server: ViteDevServer;
  root: string;
  logger: AstroIntegrationLogger;
  /** Rewrites the content-page manifest (the route table reads it when it loads). */
  writeManifest: (pages: readonly ContentPageEntry[]) => void;
  /** Writes Astro's content store to disk now (Astro waits 500 ms after the last change), which reloads the page. */
  flushContentStore: () => Promise<void> | undefined;
  /** Problems found when the dev server started. */
  initialProblems: readonly Problem[];
  initialPages: readonly ContentPageEntry[];
}

export function showContentProblemsInDev({
  server,
  root,
  logger,
  writeManifest,
  flushContentStore,
  initialProblems,
  initialPages,
}: DevFeedbackOptions): void {
  const contentDir = path.join(root, "content") + path.sep;
  const routesModule = path.join(root, "src", "lib", "routes.ts");
  const client = server.environments.client.hot;
  let problems: readonly Problem[] = initialProblems;
  let manifest = JSON.stringify(initialPages);
  let generation = manifestGeneration(initialPages);
  let generationReloads = 0;
  let shown = "";
  let fallbackReload: NodeJS.Timeout | undefined;
  /**
   * A save's text is on its way into Astro's store (`storing`) or its check waits for the file to be
   * filled (`checkPending`); `reloadHeld`: the page needs a reload once both are over (Vite or Astro asked
   * for one meanwhile, or the save fixed the problems the page was showing).
   */
  let storing = false;
  let checkPending = false;
  /**
   * A new page waits to be listed by Astro before its menu entry is published: every reload meanwhile is
   * held and sent once, after it. A reload sent earlier loaded a page whose live connection was not up
   * yet when the publication's reload went out, and the entry never showed (1 of 3 runs).
   */
  let menuWaiting = false;
  /** False while a re-announced change is stored: Vite's reload for it would only load the page twice. */
  let viteReloadNeeded = true;
  let reloadHeld = false;

  rerunStoreImporters(server);
  if (TRACE)
    server.middlewares.use((req, res, next) => {
      if (!req.headers.accept?.includes("text/html")) return next();
      trace(`request ${req.url}`);
      res.on("finish", () => trace(`answered ${req.url}`));
      next();
    });

  // While the content has problems they are the error to show: Astro's own (an unknown component
  // failing the render, a frontmatter its loader cannot parse) would only repeat one of them in English,
  // and its reloads (the collections changed) would only hide the overlay until the page comes back.
  const send = client.send.bind(client) as (payload: unknown) => void;
  client.send = ((...args: unknown[]) => {
    const payload = args[0] as { type?: string; path?: string; b1Content?: boolean } | undefined;
    if (payload?.type === "full-reload")
      trace(
        `full-reload ${payload.path ?? ""}${checkPending ? " (check pending)" : problems.length ? " (dropped: problems)" : menuWaiting ? " (menu waiting)" : storing ? " (storing)" : ""}`,
      );
    // Until the saved file could be checked, nothing Astro or Vite says about it is shown.
    if (checkPending && (payload?.type === "error" || payload?.type === "full-reload") && !payload.b1Content) {
      if (payload.type === "error" || payload.path === "*" || viteReloadNeeded) reloadHeld = true;
      return;
    }
    if (problems.length && payload?.type === "error" && !payload.b1Content) return send(overlayPayload(root, problems));
    // Right after a fix, Astro may still report the error of a render made with the broken text: the
    // page is reloaded once the store is written instead (a lasting error comes back on that render).
    if (storing && payload?.type === "error" && !payload.b1Content) {
      reloadHeld = true;
      return;
    }
    if (payload?.type === "full-reload") {
      if (problems.length) return;
      if (menuWaiting) {
        reloadHeld = true;
        return;
      }
      // Vite's own reload for a saved content file comes before Astro has stored its new text: the page
      // would load the old text, then again. It is held until the store is written (see flushStore).
      if (storing && payload.path !== "*") {
        // A change re-announced for Astro's loader: its new text reaches the page by the store's reload.
        if (!viteReloadNeeded) return;
        reloadHeld = true;
        return;
      }
      reloadHeld = false; // the store's reload is the one the page needed
      clearTimeout(fallbackReload);
    }
    return send(...(args as [unknown]));
  }) as typeof client.send;
  // A page opened or reloaded while a problem stands shows it at once.
  client.on("vite:client:connect", (_data, socket) => {
    if (problems.length) socket.send(overlayPayload(root, problems) as never);
  });

  // A page rendered with another menu than the one published reloads, unless a reload for it is still to come.
  client.on(GENERATION_EVENT, (rendered: unknown, socket) => {
    if (rendered === generation || problems.length || menuWaiting || generationReloads >= GENERATION_RELOADS) return;
    generationReloads += 1;
    trace(`page with an older menu (${String(rendered).slice(0, 16)}): reload`);
    socket.send({ type: "full-reload", path: "*" });
  });

  /** Sends the reload held for the page once its save is stored and checked, unless problems stand. */
  function sendHeldReload(): void {
    if (!reloadHeld || storing || checkPending || menuWaiting) return;
    reloadHeld = false;
    if (problems.length) return;
    trace("held reload sent");
    clearTimeout(fallbackReload);
    send({ type: "full-reload", path: "*" });
  }

  function check(): void {
    checkPending = false;
    try {
      report();
    } catch (error) {
      // A check that cannot run (a file vanished mid-save) must not stop the dev server; the next save checks again.
      logger.warn(`Verificação do conteúdo não rodou: ${(error as Error).message}`);
    }
    sendHeldReload();
  }

  function report(): void {
    const started = performance.now();
    const result = checkContent(root);
    const pagesJson = JSON.stringify(result.pages);
    const pagesChanged = pagesJson !== manifest;
    if (pagesChanged) {
      manifest = pagesJson;
      publishPages(result.pages);
    }
    const hadProblems = problems.length > 0;
    problems = result.problems;
    const took = Math.round(performance.now() - started);
    trace(`checked (${took} ms, ${problems.length} problem(s))`);
    const text = problems.map(formatProblem).join("\n");
    if (problems.length) {
      // A save can come as several events: the same problems are reported once.
      if (text === shown) return;
      shown = text;
      logger.error(`Conteúdo com problemas (${took} ms):\n${text}`);
      send(overlayPayload(root, problems));
    } else if (hadProblems || pagesChanged) {
      shown = "";
      if (hadProblems) logger.info(`Conteúdo corrigido (${took} ms).`);
      // The page under the overlay needs a reload even when the fix leaves the store as it was (the
      // broken text never reached it): sent once the store is written, unless Astro's reload went out.
      if (hadProblems) reloadHeld = true;
      // Astro reloads the page once its collections have the new text; reloading now would show the old
      // one first. This reload is for a change outside the collections (a file in content/arquivos/).
      clearTimeout(fallbackReload);
      fallbackReload = setTimeout(() => send({ type: "full-reload", path: "*" }), FALLBACK_RELOAD_MS);
    }
  }

  // Astro rewrites its list of MDX render modules when a file is added, but its dev server keeps the
  // old list loaded (a new page would fail to render until a restart): it is loaded again here.
  const renderModules = path.join(root, ".astro", "content-modules.mjs");
  // Its store of entries, which the page routes list their pages from (getStaticPaths).
  const dataStore = path.join(root, ".astro", "data-store.json");
  /** Whether Astro lists every page both among the modules it can render and in its store of entries. */
  const listedForRender = (pages: readonly ContentPageEntry[]): boolean =>
    [renderModules, dataStore].every((file) => {
      let listed: string;
      try {
        listed = fs.readFileSync(file, "utf8");
      } catch {
        return true; // no such file (yet): nothing to wait for
      }
      return pages.every((page) => listed.includes(JSON.stringify(page.file)));
    });
  let publishing: NodeJS.Timeout | undefined;

  /**
   * The menu (the manifest the route table reads) changes only once Astro can render every page in
   * it: a menu entry clicked before then showed Astro's UnknownContentCollectionError, or a 404 when
   * the page's module was listed but not yet its entry. A page that
   * waited is reloaded when its entry appears (Astro's own reload came before it).
   */
  function publishPages(pages: readonly ContentPageEntry[], since = Date.now(), waited = false): void {
    clearTimeout(publishing);
    const ready = listedForRender(pages);
    if (!ready && Date.now() - since < RENDER_LIST_WAIT_MS) {
      menuWaiting = true;
      publishing = setTimeout(() => publishPages(pages, since, true), SETTLE_MS);
      return;
    }
    writeManifest(pages);
    generation = manifestGeneration(pages);
    generationReloads = 0;
    menuWaiting = false;
    trace(`menu published${ready ? "" : " (not listed in time)"}${waited ? ", reload" : ""}`);
    invalidateWithImporters(server, routesModule);
    invalidateWithImporters(server, renderModules);
    if (waited) {
      reloadHeld = true;
      sendHeldReload();
    }
  }

  // Checked at once, inside the watcher's event: Astro's own reaction to the save (re-rendering the
  // collections) would otherwise run first and delay the report by a second or more. A file seen
  // empty is usually one being written (truncated, then filled): checked again once the writes settle.
  let settle: NodeJS.Timeout | undefined;
  // Astro's loader reads a file at its first change event, which can be mid-write (a truncated file
  // fails its schema), and the watcher drops a second event for the same file that comes too soon after
  // the first: the page kept its old text after a fix. So a file that changed again after its event is
  // announced once more once the writes settle (this check hears it too and reads the final text). Only
  // then: a repeat of a complete save made Astro's dev server keep serving the old text.
  const version = (file: string): string => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : "";
  };
  const repeats = new Map<string, NodeJS.Timeout>();
  let flushing: NodeJS.Timeout | undefined;
  let lastSaveAt = -Infinity;
  let lastSave: { event: "add" | "change" | "unlink"; file: string } = { event: "change", file: "" };
  let releasing: NodeJS.Timeout | undefined;
  /** The save is stored (or its store write did not come in time): a reload held for it may go out. */
  function releaseReload(): void {
    clearTimeout(releasing);
    if (!storing) return;
    trace("release");
    storing = false;
    sendHeldReload();
  }
  /** Writes Astro's store now (its reload follows when the text changed), then releases a held reload. */
  function flushStore(): void {
    const flushed = flushContentStore();
    if (!flushed) return releaseReload();
    // Astro's promise also waits for its other debounced files (up to 500 ms): the hold ends at HOLD_MS anyway.
    flushed.catch((error: Error) => logger.warn(error.message)).finally(releaseReload);
  }

  /**
   * Writes the store a loader just changed for a save (Astro's reload follows), then releases a held
   * reload. After a file was added or deleted, Astro's list of MDX render modules first: Astro rewrites
   * that list only once something marked it changed (a new entry does not), 500 ms later, and a new
   * page's menu entry waited for it.
   */
  async function writeStoredText(store: ChangedStore, addedOrDeleted: string | null): Promise<void> {
    trace(`store write${addedOrDeleted ? " (and the render modules)" : ""}`);
    try {
      if (addedOrDeleted) {
        // Marks the list changed; it is rebuilt from the store's entries when written.
        store.addModuleImport(path.relative(root, addedOrDeleted).split(path.sep).join("/"));
        await store.writeModuleImports(renderModules);
      }
      await store.writeToDisk();
    } catch (error) {
      logger.warn((error as Error).message);
    } finally {
      releaseReload();
    }
  }
  // A save's text is written out as soon as its loader has stored it, not after FLUSH_MS.
  onContentStoreChange((store) => {
    if (performance.now() - lastSaveAt > LATE_STORE_MS) return;
    trace("store changed");
    clearTimeout(flushing);
    const addedOrDeleted = lastSave.event === "change" ? null : lastSave.file;
    flushing = setTimeout(() => void writeStoredText(store, addedOrDeleted), STORED_SETTLE_MS);
  });

  /** Set while this file re-announces a change: Vite's own reload for it is not needed (see onFileEvent). */
  let reannouncing = false;
  function repeatIfWrittenAgain(file: string): void {
    clearTimeout(repeats.get(file));
    const seen = version(file);
    repeats.set(
      file,
      setTimeout(() => {
        repeats.delete(file);
        if (version(file) === seen) return;
        reannouncing = true;
        try {
          server.watcher.emit("change", file);
        } finally {
          reannouncing = false;
        }
      }, REPEAT_MS),
    );
  }

  /** Checks a file seen empty once it is filled (the same size at two looks), at most SETTLE_MS after the save. */
  function checkWhenFilled(file: string, since = performance.now(), lastSize = 0): void {
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if ((size > 0 && size === lastSize) || performance.now() - since >= SETTLE_MS) return check();
    settle = setTimeout(() => checkWhenFilled(file, since, size), FILLED_POLL_MS);
  }

  // Heard before Vite's own listeners: a save's problems are known before Vite asks the browser to reload
  // (a reload would be let through, and the page would load again before showing the error).
  const onFileEvent = (event: "add" | "change" | "unlink") => (file: string) => {
    if (path.resolve(file) === renderModules) return invalidateWithImporters(server, renderModules);
    if (!path.resolve(file).startsWith(contentDir)) return;
    if (!storing) traceStart = performance.now();
    trace(`${event} ${path.relative(root, file)}`);
    if (event === "change") repeatIfWrittenAgain(file);
    clearTimeout(flushing);
    storing = true;
    viteReloadNeeded = !reannouncing;
    lastSaveAt = performance.now();
    lastSave = { event, file };
    clearTimeout(releasing);
    releasing = setTimeout(releaseReload, HOLD_MS);
    clearTimeout(settle);
    if (event === "change" && fs.statSync(file, { throwIfNoEntry: false })?.size === 0) {
      checkPending = true;
      settle = setTimeout(() => checkWhenFilled(file), FILLED_POLL_MS);
    } else check();
    // Counted from here: the loaders read the file only once this event's listeners (this check) have run.
    // Not for an added or deleted file: a sync started before the loader had listed the new page wrote
    // Astro's render-module list without it, and nothing wrote it again (the page's menu entry waited
    // for good, 2 of 5 runs under load); its loader's change is written as above.
    if (event === "change") flushing = setTimeout(flushStore, FLUSH_MS);
  };
  for (const event of ["add", "change", "unlink"] as const) server.watcher.prependListener(event, onFileEvent(event));
}
