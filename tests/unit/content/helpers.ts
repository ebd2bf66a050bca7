import fs from "node:fs";
import { parse } from "yaml";

/** Reads a shipped content file (content/<name>). */
export function readContent(name: string): unknown {
  return parse(fs.readFileSync(`content/${name}`, "utf8"));
}

/** Frontmatter of every MDX file of a content folder, in file-name order (content/<dir>/*.mdx). */
export function readFrontmatters(dir: string): Record<string, unknown>[] {
  return fs
    .readdirSync(`content/${dir}`)
    .filter((name) => name.endsWith(".mdx"))
    .sort()
    .map((name) => parse(/^---\n([\s\S]*?)\n---/.exec(fs.readFileSync(`content/${dir}/${name}`, "utf8"))![1]!) as Record<string, unknown>);
}
