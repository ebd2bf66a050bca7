import fs from "node:fs";
import path from "node:path";
import {
  DOWNLOADS_DIST_DIR,
  DOWNLOADS_MANIFEST_FILE,
  downloadType,
  isDownloadFileName,
  type DownloadEntry,
} from "../../content/downloads.ts";
import { compressBody, type Body } from "./static-files.ts";

/** A file offered for download, held in memory, with the pages whose readers may fetch it. */
export interface DownloadFile extends Body {
  /** File name (also the name the browser saves it under). */
  name: string;
  type: string;
  /** Pages that list it: whoever may open one of them may download it. */
  pages: readonly string[];
}

/**
 * The files the build listed (dist/downloads.json), read once at start and keyed by their URL path.
 * Only names on that list exist for the gate: nothing in a request ever becomes a file path.
 */
export function loadDownloads(distDir: string): Map<string, DownloadFile> {
  const downloads = new Map<string, DownloadFile>();
  const manifest = path.join(distDir, DOWNLOADS_MANIFEST_FILE);
  if (!fs.existsSync(manifest)) return downloads;
  const { downloads: entries = [] } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { downloads?: DownloadEntry[] };
  for (const entry of entries) {
    // The build checked the name already; checked again because this name becomes a path below.
    if (!isDownloadFileName(entry.file) || entry.pages.length === 0) continue;
    const raw = fs.readFileSync(path.join(distDir, DOWNLOADS_DIST_DIR, entry.file));
    downloads.set(entry.path, {
      ...compressBody(raw, false),
      name: entry.file,
      type: downloadType(entry.file),
      pages: entry.pages,
    });
  }
  return downloads;
}
