/**
 * Downloads and missing addresses in the content: every file a template, tool or MDX page offers
 * (it must exist in content/arquivos/ with an accepted name and size; the build copies the list and
 * the pages that show each file) and every action still without a link or file ('Em breve').
 */
import fs from "node:fs";
import path from "node:path";
import type { Document, LineCounter } from "yaml";
import {
  DOWNLOADS_DIR,
  downloadHref,
  isDownloadFileName,
  MAX_DOWNLOAD_BYTES,
  type DownloadEntry,
} from "../../src/lib/content/downloads.ts";
import { lineOfPath } from "./frontmatter.ts";
import type { Problem } from "./problem.ts";

/** Collects the files offered by the content, checking each one where it is named. */
export class DownloadCollector {
  private readonly pagesByFile = new Map<string, Set<string>>();

  constructor(
    private readonly root: string,
    private readonly problems: Problem[],
  ) {}

  /** `name` is offered at `where` on `pages`; a problem is recorded when it cannot be served. */
  offer(name: string, where: { file: string; line: number }, pages: readonly string[]): void {
    if (!isDownloadFileName(name)) {
      this.problems.push({
        ...where,
        message: `arquivo "${name}" inválido: use letras minúsculas, números e hífens e a extensão pdf, docx, xlsx, pptx, odt, ods, odp, csv ou zip`,
      });
      return;
    }
    const stat = fs.statSync(path.join(this.root, DOWNLOADS_DIR, name), { throwIfNoEntry: false });
    if (!stat?.isFile()) {
      this.problems.push({ ...where, message: `arquivo não encontrado: coloque ${name} em ${DOWNLOADS_DIR}/` });
      return;
    }
    if (stat.size > MAX_DOWNLOAD_BYTES) {
      this.problems.push({
        ...where,
        message: `arquivo ${name} grande demais (máximo ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB): publique-o fora do portal e use link`,
      });
      return;
    }
    const known = this.pagesByFile.get(name) ?? new Set<string>();
    for (const page of pages) known.add(page);
    this.pagesByFile.set(name, known);
  }

  entries(): DownloadEntry[] {
    return [...this.pagesByFile]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, pages]) => ({ file, path: downloadHref(file), pages: [...pages].sort() }));
  }
}

/** An entry still without an address: its button reads 'Em breve'. */
export interface MissingLink {
  file: string;
  line: number;
  name: string;
}

const nameOf = (item: Record<string, unknown>, fallback: string): string => {
  for (const key of ["title", "name", "label", "id"]) if (typeof item[key] === "string" && item[key]) return item[key];
  return fallback;
};

/**
 * Walks a YAML file's data: every object with a `link` field records its `file` offer (a problem when
 * both are filled) and, when neither is filled, a missing link.
 */
export function walkLinks(
  file: string,
  doc: Document,
  lineCounter: LineCounter,
  data: unknown,
  visit: {
    offer: (name: string, line: number) => void;
    missing: (entry: MissingLink) => void;
    problem: (problem: Problem) => void;
  },
): void {
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (Array.isArray(value)) return value.forEach((item, index) => walk(item, [...at, index]));
    if (!value || typeof value !== "object") return;
    const item = value as Record<string, unknown>;
    if ("link" in item && typeof item.link === "string") {
      const fileName = typeof item.file === "string" ? item.file : "";
      const line = lineOfPath(doc, lineCounter, [...at, fileName ? "file" : "link"]);
      if (fileName && item.link) visit.problem({ file, line, message: 'use "link" ou "file", não os dois' });
      else if (fileName) visit.offer(fileName, line);
      else if (!item.link) visit.missing({ file, line, name: nameOf(item, at.join(".")) });
    }
    for (const [key, child] of Object.entries(item)) walk(child, [...at, key]);
  };
  walk(data, []);
}
