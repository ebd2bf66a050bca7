import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Loader } from "astro/loaders";
import { parse } from "yaml";

/**
 * Loads one YAML file of content: a list of entries with unique `id`s, or a single document
 * (one entry named after the file). Unlike Astro's `file()` loader, a YAML syntax error or a
 * duplicate id fails the build with the file name, and schema errors name the entry and field.
 * List items also get `position` (their 0-based place in the file) because Astro's store keeps
 * entries sorted by id: schemas that need the editor's order declare `position: filePosition`.
 */
export function yamlLoader(file: string): Loader {
  /** The reload listener of the last load: load runs again when the config changes, with a new store. */
  let reload: ((changed: string) => void) | undefined;
  return {
    name: "b1-yaml-loader",
    load: async ({ store, parseData, config, watcher, logger }) => {
      const filePath = fileURLToPath(new URL(file, config.root));
      const relative = path.relative(fileURLToPath(config.root), filePath);
      const sync = async () => {
        const text = await fs.readFile(filePath, "utf8");
        let data: unknown;
        try {
          data = parse(text);
        } catch (error) {
          throw new Error(`${relative}: YAML inválido — ${(error as Error).message}`);
        }
        const entries: { id: string; data: Record<string, unknown> }[] = [];
        if (Array.isArray(data)) {
          const seen = new Set<string>();
          for (const [index, item] of data.entries()) {
            const id = (item as { id?: unknown })?.id;
            if (typeof id !== "string" || !id) throw new Error(`${relative}: o item ${index + 1} não tem o campo "id"`);
            if (seen.has(id)) throw new Error(`${relative}: id duplicado "${id}" (item ${index + 1})`);
            seen.add(id);
            const positioned = { ...(item as Record<string, unknown>), position: index };
            entries.push({ id, data: await parseData({ id, data: positioned, filePath: relative }) });
          }
        } else if (data && typeof data === "object") {
          const id = path.basename(file).replace(/\.ya?ml$/, "");
          entries.push({ id, data: await parseData({ id, data: data as Record<string, unknown>, filePath: relative }) });
        } else {
          throw new Error(`${relative}: o arquivo deve conter uma lista ou um objeto`);
        }
        store.clear();
        for (const entry of entries) store.set({ ...entry, filePath: relative });
      };
      // One read at a time, in order: a reload started during a slower earlier read must not be
      // overwritten by that read's older text when it ends.
      let reading: Promise<void> = Promise.resolve();
      const syncInOrder = (): Promise<void> => {
        const next = reading.then(sync, sync);
        reading = next.catch(() => {});
        return next;
      };
      // Watched before the first read: a save made while the collections are still being loaded
      // (the dev server already answers from the last build's store) is read again, not lost.
      // Astro removes its loaders' listeners before it loads everything again (a changed config), but
      // not before loading only some loaders: the last listener is replaced, never kept or doubled.
      if (watcher) {
        if (reload) watcher.off("change", reload);
        watcher.add(filePath);
        // `astro dev`: re-read on save; a broken save is reported and the last good data stays.
        reload = (changed) => {
          if (path.resolve(changed) !== filePath) return;
          syncInOrder().then(
            () => logger?.info(`${relative} recarregado`),
            (error: Error) => logger?.error(error.message),
          );
        };
        watcher.on("change", reload);
      }
      await syncInOrder();
    },
  };
}
