import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { distDir } from "./settings.ts";

/**
 * The manifest of pages that editors add as content files (content/paginas/<slug>.mdx). The
 * build writes it (scripts/content/manifest.ts) and the route module reads it once at start-up,
 * so the gate, navigation, seed, admin checklists and tests share one route table.
 */
export interface ContentPageEntry {
  /** File name without extension; the page lives at `/<slug>`. */
  slug: string;
  path: string;
  title: string;
  description: string;
  nav: "header" | "none";
  navLabel?: string;
  order: number;
  access: "signed-in" | readonly ("admin" | "lider" | "visualizador" | "security")[];
  /** Source file, relative to the project root. */
  file: string;
}

export const CONTENT_MANIFEST_FILE = "content-pages.json";

/** Where the built site keeps the manifest (the gate's B1_DIST_DIR, else ./dist). */
export function contentManifestPath(): string {
  return path.join(distDir(), CONTENT_MANIFEST_FILE);
}

/** The pages of the manifest; none when nothing was built yet (unit tests, a fresh clone). */
export function readContentManifest(file = contentManifestPath()): ContentPageEntry[] {
  if (!fs.existsSync(file)) return [];
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { pages?: ContentPageEntry[] };
  return parsed.pages ?? [];
}

/**
 * A short digest of a page list (as the manifest file holds it). `astro dev` stamps each page with the
 * digest of the list its menu was rendered from, so a page rendered just before a new page was published
 * can be reloaded once its live connection is up (scripts/content/dev-feedback.ts).
 */
export function manifestGeneration(pages: readonly ContentPageEntry[]): string {
  return createHash("sha256").update(JSON.stringify(pages)).digest("base64url").slice(0, 16);
}
