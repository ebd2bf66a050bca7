/**
 * `astro dev`: hears each change of Astro's content store (a loader storing, deleting or clearing
 * entries), so a save's new text can be written out as soon as its loader has stored it, instead of
 * after a fixed wait. Astro has no hook for this: the methods of its store class are wrapped, once per
 * process. Loaded with `require` from Astro's own folder, so it is the very class its dev server uses
 * (a module runner's `import` could evaluate a second copy). Without that class nothing is heard, and
 * the dev server's fixed waits write the store as before.
 */
import { createRequire } from "node:module";
import path from "node:path";

/** What a listener may do with the store that changed: write it, or its list of MDX render modules, to disk now. */
export interface ChangedStore {
  writeToDisk(): Promise<void>;
  writeModuleImports(file: string): Promise<void>;
  addModuleImport(file: string): void;
}
type Listener = (store: ChangedStore) => void;
type StoreClass = { prototype: Record<string, (...args: unknown[]) => unknown> };

const CHANGING_METHODS = ["set", "delete", "clear", "clearAll"] as const;
const listeners = new Set<Listener>();
let wrapped = false;

function wrapStoreClass(): boolean {
  const require = createRequire(import.meta.url);
  let store: StoreClass;
  try {
    const astro = path.dirname(require.resolve("astro/package.json"));
    ({ MutableDataStore: store } = require(path.join(astro, "dist", "content", "mutable-data-store.js")) as {
      MutableDataStore: StoreClass;
    });
  } catch {
    return false; // another Astro layout
  }
  for (const name of CHANGING_METHODS) {
    const original = store.prototype[name];
    if (typeof original !== "function") continue;
    store.prototype[name] = function (this: ChangedStore, ...args: unknown[]) {
      const result = original.apply(this, args);
      for (const listener of listeners) listener(this);
      return result;
    };
  }
  return true;
}

/** Calls `listener` after every change of Astro's content store. */
export function onContentStoreChange(listener: Listener): void {
  if (!wrapped) wrapped = wrapStoreClass();
  if (wrapped) listeners.add(listener);
}
