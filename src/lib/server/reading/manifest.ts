import fs from "node:fs";
import path from "node:path";
import { READING_MANIFEST_FILE, type ReadingManifest, type RequiredPage } from "../../reading/required-page.ts";
import { distDir } from "../../settings.ts";

/** Where the built site keeps the required-reading manifest (the gate's B1_DIST_DIR, else ./dist). */
export function readingManifestPath(): string {
  return path.join(distDir(), READING_MANIFEST_FILE);
}

let loaded: ReadingManifest | undefined;

/** The build's required pages, read once (a new build starts a new process); none before the first build. */
export function readingManifest(): ReadingManifest {
  if (!loaded) {
    const file = readingManifestPath();
    loaded = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as ReadingManifest) : { buildId: "none", pages: [] };
  }
  return loaded;
}

/** The required page at `pagePath`, if the build marked it so. */
export function requiredPage(pagePath: string): RequiredPage | undefined {
  return readingManifest().pages.find((page) => page.path === pagePath);
}
