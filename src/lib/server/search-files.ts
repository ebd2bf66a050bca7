import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../routes.ts";
import { BASE_BUNDLE, bundleFor } from "../search-bundles.ts";
import { compressBody, contentType, type Asset } from "./static-files.ts";

/** The search files the gate serves under /pagefind/. */
export interface SearchFiles {
  /** Returns the file of `path` (below /pagefind/) from the bundle this principal may read. */
  lookup(principal: Principal, path: string): Asset | undefined;
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/**
 * Loads every search bundle (dist/search/<key>/pagefind/…) into memory at start. The gate
 * serves `/pagefind/*` from the one bundle the principal may read (see search-bundles.ts).
 */
export function loadSearchBundles(dir: string): SearchFiles {
  const bundles = new Map<string, Map<string, Asset>>();
  const gated = new Set<string>();
  if (fs.existsSync(dir)) {
    for (const key of fs.readdirSync(dir)) {
      const root = path.join(dir, key, "pagefind");
      if (!fs.existsSync(root)) continue;
      if (key !== BASE_BUNDLE) for (const name of key.split("+")) gated.add(`/${name}`);
      const files = new Map<string, Asset>();
      for (const file of walk(root)) {
        const rel = "/" + path.relative(root, file).split(path.sep).join("/");
        // Fragments and indexes are already compressed by Pagefind; text files are compressed here.
        const compressible = /\.(js|css|json)$/.test(file);
        files.set(rel, { ...compressBody(fs.readFileSync(file), compressible), type: contentType(file), immutable: false });
      }
      bundles.set(key, files);
    }
  }
  const gatedPaths = [...gated].sort();
  return {
    lookup(principal: Principal, filePath: string) {
      return bundles.get(bundleFor(principal, gatedPaths))?.get(filePath);
    },
  };
}
