import fs from "node:fs";
import { parse } from "yaml";

/** Reads a shipped content file (content/<name>). */
export function readContent(name: string): unknown {
  return parse(fs.readFileSync(`content/${name}`, "utf8"));
}
