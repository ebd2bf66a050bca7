import fs from "node:fs";
import path from "node:path";
import { getCollection } from "astro:content";

/**
 * The playbook guides written as content/guias/<id>.mdx (read at build time). The folder ships
 * empty, and Astro warns in English for every read of an empty collection: it is read only when
 * it has a file.
 */
export async function writtenGuides() {
  const folder = path.resolve("content/guias");
  const any = fs.existsSync(folder) && fs.readdirSync(folder).some((name) => name.endsWith(".mdx"));
  return any ? getCollection("guias") : [];
}
