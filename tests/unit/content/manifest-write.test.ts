/**
 * The content manifests in dist/ are written again (same content) by every start of vitest or of the
 * dev server, while servers of the build may be reading them: `npm test` runs its SQLite and
 * PostgreSQL lanes side by side. A write must replace the file whole, never truncate it in place.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../../scripts/content/integration";

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("manifest writes", () => {
  it("replace the file whole: a reader that opened it before still reads the old text in full, and nothing is left behind", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-manifest-"));
    const file = path.join(dir, "content-manifest.json");
    const before = JSON.stringify({ pages: Array.from({ length: 2000 }, (_, index) => `/pagina-${index}`) });
    writeFileAtomic(file, before);
    const reader = fs.openSync(file, "r");
    try {
      const after = JSON.stringify({ pages: ["/nova"] });
      writeFileAtomic(file, after);
      // A truncate-and-write would have emptied what the open reader sees.
      const buffer = Buffer.alloc(before.length + 10);
      const read = fs.readSync(reader, buffer, 0, buffer.length, 0);
      expect(buffer.subarray(0, read).toString()).toBe(before);
      expect(fs.readFileSync(file, "utf8")).toBe(after);
    } finally {
      fs.closeSync(reader);
    }
    expect(fs.readdirSync(dir)).toEqual(["content-manifest.json"]);
  });
});
