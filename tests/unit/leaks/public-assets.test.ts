import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { listFiles } from "../../../src/lib/server/platform/files";

/**
 * Nothing the gate serves without a session (dist/client) may contain content text: the test
 * picks sentences out of every content collection and greps every public file for them.
 */
const walk = listFiles;

function collectStrings(value: unknown, out: Set<string>): void {
  if (typeof value === "string") {
    const text = value.trim();
    // Sentences, not labels: long enough to be content and never a UI word.
    if (text.length >= 40 && !/^(https?:|mailto:|\/)/.test(text)) out.add(text.slice(0, 60));
  } else if (Array.isArray(value)) value.forEach((item) => collectStrings(item, out));
  else if (value && typeof value === "object") Object.values(value).forEach((item) => collectStrings(item, out));
}

function contentStrings(): string[] {
  const out = new Set<string>();
  for (const file of walk("content")) {
    const text = fs.readFileSync(file, "utf8");
    if (/\.(ya?ml)$/.test(file)) collectStrings(parse(text), out);
    else if (/\.json$/.test(file)) collectStrings(JSON.parse(text), out);
    else if (/\.mdx?$/.test(file)) {
      const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text);
      if (frontmatter) collectStrings(parse(frontmatter[1]!), out);
      const body = text.replace(/^---[\s\S]*?---/, "");
      // Prose only: component tags and their attributes are not text a reader sees.
      for (const line of body.split("\n"))
        collectStrings(
          line
            .replace(/<[^>]*>/g, " ")
            .replace(/[#*_>`-]/g, " ")
            .replace(/\s+/g, " "),
          out,
        );
    }
  }
  return [...out];
}

describe("public assets", () => {
  const publicFiles = [...walk("dist/client")].filter((file) => !/\.(br|gz|png|jpe?g|webp|woff2?|ico)$/.test(file));

  it("has a build to check and content to look for", () => {
    expect(publicFiles.length).toBeGreaterThan(0);
  });

  it("holds no content text in any file served without a session", () => {
    const strings = contentStrings();
    // An empty needle list would pass vacuously: the content holds hundreds of sentences.
    expect(strings.length).toBeGreaterThan(300);
    const leaks: string[] = [];
    for (const file of publicFiles) {
      const text = fs.readFileSync(file, "utf8");
      for (const needle of strings) if (text.includes(needle)) leaks.push(`${file}: "${needle}"`);
    }
    expect(leaks).toEqual([]);
  });

  it("holds no prerendered page except the content-free 404/500 pages", () => {
    const html = publicFiles.filter((file) => file.endsWith(".html")).map((file) => path.relative("dist/client", file));
    expect(html.sort()).toEqual(["404.html", "500.html"]);
  });
});
