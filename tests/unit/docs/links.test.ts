/**
 * Every file a document or the code points to exists: the relative links and repository paths in
 * README.md and docs/*.md (with their #anchors, slugged as GitHub does), the docs/*.md paths named in
 * the code, and the sections the admin's 'Primeiros passos' links to. Issue 65 found three missing.
 */
import fs from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { FIRST_STEP_DOCS } from "../../../src/lib/server/admin/first-steps.ts";

const DOCUMENTS = [
  "README.md",
  ...fs
    .readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The anchors GitHub gives a Markdown file's headings (code blocks skipped). */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) found.add(slugger.slug(heading[1]!.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")));
  }
  return found;
}

/** Markdown outside fenced code blocks. */
function prose(file: string): string {
  let fenced = false;
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => {
      if (line.startsWith("```")) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** Repository folders a backticked path may start with (built output, data and system paths are not in the repository). */
const REPO_ROOTS = /^(docs|deploy|scripts|src|tests|db|content|public|\.ci)\//;

function problems(file: string): string[] {
  const found: string[] = [];
  const text = prose(file);
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [where, anchor] = target.split("#") as [string, string | undefined];
    const resolved = where === "" ? file : path.join(path.dirname(file), decodeURIComponent(where));
    if (!fs.existsSync(resolved)) found.push(`${file}: ${target} (arquivo não existe)`);
    else if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(decodeURIComponent(anchor)))
      found.push(`${file}: ${target} (seção não existe)`);
  }
  for (const match of text.matchAll(/`([^`\s]+)`/g)) {
    const candidate = match[1]!.replace(/[.,;:]$/, "");
    if (!REPO_ROOTS.test(candidate) || /[<>*$…{}]/.test(candidate)) continue;
    const [where, anchor] = candidate.split("#") as [string, string | undefined];
    if (!fs.existsSync(where)) found.push(`${file}: \`${candidate}\` (arquivo não existe)`);
    else if (anchor && where.endsWith(".md") && !anchors(where).has(anchor)) found.push(`${file}: \`${candidate}\` (seção não existe)`);
  }
  return found;
}

/** Every file under `dir`, as paths from the repository root (Node's own recursive listing). */
function walk(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => path.join(dir, file));
}

describe("links in the documents", () => {
  it("every relative link and repository path in README.md and docs/*.md exists, anchors included", () => {
    expect(DOCUMENTS.flatMap(problems)).toEqual([]);
  });

  it("every docs/*.md and README section the code names exists", () => {
    const missing: string[] = [];
    for (const file of [...walk("src"), ...walk("scripts"), ...walk("deploy")]) {
      if (!/\.(ts|tsx|astro|mjs|sh|cfg|ini|service|yml)$/.test(file)) continue;
      for (const match of fs.readFileSync(file, "utf8").matchAll(/docs\/[a-z0-9-]+\.md/g))
        if (!fs.existsSync(match[0])) missing.push(`${file}: ${match[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it("each 'Primeiros passos' item links to a file and section that exist", () => {
    for (const [id, [file, anchor]] of Object.entries(FIRST_STEP_DOCS)) {
      expect(fs.existsSync(file), `${id}: ${file}`).toBe(true);
      expect(anchors(file).has(anchor), `${id}: ${file}#${anchor}`).toBe(true);
    }
  });
});
