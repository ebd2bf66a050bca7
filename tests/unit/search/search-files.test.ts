/**
 * The search files as the gate loads them at start (src/lib/server/content/search-files.ts): Pagefind's
 * text files come with the .br and .gz that scripts/build-search.ts wrote, and the start reads them
 * instead of compressing every distinct file again (~0.2 s of CPU per start); a bundle the build did
 * not compress (an older dist) is compressed as before; the compressed siblings are never files of
 * their own under /pagefind/.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { loadSearchBundles } from "../../../src/lib/server/content/search-files";
import { BASE_BUNDLE } from "../../../src/lib/search/bundles";
import type { Principal } from "../../../src/lib/routes";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-search-files-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const reader: Principal = { userId: "u1", email: "a@b1.example.com", name: "A", roles: ["visualizador"], grantedPaths: new Set() };
const SCRIPT = Buffer.from(`export const ui = ${JSON.stringify("Pesquisar ".repeat(200))};\n`);

function bundle(name: string, files: Record<string, Buffer>): string {
  const root = path.join(dir, name);
  const folder = path.join(root, BASE_BUNDLE, "pagefind");
  fs.mkdirSync(folder, { recursive: true });
  for (const [file, body] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), body);
  return root;
}

describe("search files at start", () => {
  it("serves the build's .br and .gz of a text file, not a compression of its own", () => {
    // Distinct bytes the start could not have produced itself: it read them from the build.
    const fromBuild = { br: Buffer.from("br da build"), gzip: Buffer.from("gz da build") };
    const root = bundle("precomprimido", {
      "pagefind-ui.js": SCRIPT,
      "pagefind-ui.js.br": fromBuild.br,
      "pagefind-ui.js.gz": fromBuild.gzip,
    });
    const file = loadSearchBundles(root).lookup(reader, "/pagefind-ui.js")!;
    expect(file.raw.equals(SCRIPT)).toBe(true);
    expect(file.br?.equals(fromBuild.br)).toBe(true);
    expect(file.gzip?.equals(fromBuild.gzip)).toBe(true);
  });

  it("compresses a text file the build left without them (an older dist)", () => {
    const root = bundle("sem-irmaos", { "pagefind-ui.js": SCRIPT });
    const file = loadSearchBundles(root).lookup(reader, "/pagefind-ui.js")!;
    expect(zlib.brotliDecompressSync(file.br!).equals(SCRIPT)).toBe(true);
    expect(zlib.gunzipSync(file.gzip!).equals(SCRIPT)).toBe(true);
  });

  it("never serves the .br or .gz as files of their own", () => {
    const root = bundle("listagem", {
      "pagefind-ui.js": SCRIPT,
      "pagefind-ui.js.br": zlib.brotliCompressSync(SCRIPT),
      "pagefind-ui.js.gz": zlib.gzipSync(SCRIPT),
    });
    const files = loadSearchBundles(root);
    expect(files.lookup(reader, "/pagefind-ui.js")).toBeDefined();
    expect(files.lookup(reader, "/pagefind-ui.js.br")).toBeUndefined();
    expect(files.lookup(reader, "/pagefind-ui.js.gz")).toBeUndefined();
  });

  it("keeps a sibling only when it is smaller than the file", () => {
    const small = Buffer.from("x".repeat(300));
    const root = bundle("maiores", {
      "pagefind.js": small,
      "pagefind.js.br": Buffer.alloc(400, 1),
      "pagefind.js.gz": Buffer.alloc(400, 2),
    });
    const file = loadSearchBundles(root).lookup(reader, "/pagefind.js")!;
    expect(file.br).toBeUndefined();
    expect(file.gzip).toBeUndefined();
  });
});
