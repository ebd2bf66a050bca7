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
  /** Watchers already told to reload this file (load runs again when the config changes). */
  const watching = new WeakSet<object>();
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
      await sync();
      if (watcher && !watching.has(watcher)) {
        watching.add(watcher);
        watcher.add(filePath);
        // `astro dev`: re-read on save; a broken save is reported and the last good data stays.
        watcher.on("change", (changed) => {
          if (path.resolve(changed) !== filePath) return;
          sync().then(
            () => logger?.info(`${relative} recarregado`),
            (error: Error) => logger?.error(error.message),
          );
        });
      }
    },
  };
}
