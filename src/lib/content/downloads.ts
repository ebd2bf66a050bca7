/**
 * Files kept in git beside the content (content/arquivos/) that templates, tools and MDX pages
 * offer for download. The build lists them with the pages that show them; the gate serves each
 * one only to people who may open one of those pages, from that list alone (no path is ever
 * read from the request).
 */

/** Where editors put the files, relative to the project root. */
export const DOWNLOADS_DIR = "content/arquivos";

/** The URL prefix the gate serves them under. */
export const DOWNLOADS_URL_PREFIX = "/arquivos/";

/** The build's list of downloadable files (dist/<this>), and where their copies go (dist/arquivos). */
export const DOWNLOADS_MANIFEST_FILE = "downloads.json";
export const DOWNLOADS_DIST_DIR = "arquivos";

/** Largest file accepted: every file is held in the gate's memory. */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/** Office and PDF formats offered for download, with the type the gate sends. */
export const DOWNLOAD_TYPES: Readonly<Record<string, string>> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  csv: "text/csv; charset=utf-8",
  zip: "application/zip",
};

/** A file name the portal accepts: lower-case words with hyphens and one known extension (so it is also a safe download name). */
export const DOWNLOAD_FILE_NAME = new RegExp(`^[a-z0-9]+(?:-[a-z0-9]+)*\\.(?:${Object.keys(DOWNLOAD_TYPES).join("|")})$`);

export function isDownloadFileName(name: string): boolean {
  return DOWNLOAD_FILE_NAME.test(name);
}

export function downloadType(name: string): string {
  return DOWNLOAD_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** The address of a file kept in content/arquivos/. */
export function downloadHref(file: string): string {
  return DOWNLOADS_URL_PREFIX + file;
}

/** What an action points to: the file kept in git when there is one, else the link ('' = 'Em breve'). */
export function actionHref(item: { link?: string; file?: string }): string {
  return item.file ? downloadHref(item.file) : (item.link ?? "");
}

/** One downloadable file as the build lists it. */
export interface DownloadEntry {
  /** File name in content/arquivos/ (and dist/arquivos/). */
  file: string;
  /** URL path: /arquivos/<file>. */
  path: string;
  /** Pages that offer it: whoever may open one of them may download it. */
  pages: string[];
}
