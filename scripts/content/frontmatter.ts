import { LineCounter, parseDocument, isMap, isPair, isScalar, type Document } from "yaml";

/** A Markdown/MDX file split into its YAML frontmatter and body, keeping line numbers. */
export interface SplitFile {
  /** The parsed frontmatter document (null when the file has none). */
  doc: Document | null;
  /** Line (1-based) where the frontmatter's YAML starts. */
  yamlStartLine: number;
  lineCounter: LineCounter;
  body: string;
  /** Line (1-based) where the body starts. */
  bodyStartLine: number;
}

export function splitFrontmatter(text: string): SplitFile {
  const lineCounter = new LineCounter();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { doc: null, yamlStartLine: 1, lineCounter, body: text, bodyStartLine: 1 };
  const doc = parseDocument(match[1]!, { lineCounter, prettyErrors: false });
  const bodyStartLine = match[0].split("\n").length - (match[0].endsWith("\n") ? 1 : 0) + 1;
  return { doc, yamlStartLine: 2, lineCounter, body: text.slice(match[0].length), bodyStartLine };
}

/**
 * Line (1-based, within the YAML text) of the node at `path`: the key when the path ends in a
 * map key, else the closest existing ancestor. Line 1 when nothing matches.
 */
export function lineOfPath(doc: Document, lineCounter: LineCounter, path: readonly PropertyKey[]): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const parentPath = path.slice(0, depth - 1) as (string | number)[];
    const last = path[depth - 1];
    const parent = depth === 0 ? doc.contents : doc.getIn(parentPath, true);
    if (depth > 0 && isMap(parent)) {
      const pair = parent.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === last);
      const offset = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
      if (offset !== undefined) return lineCounter.linePos(offset).line;
    }
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth) as (string | number)[], true);
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (range && depth > 0) return lineCounter.linePos(range[0]).line;
  }
  return 1;
}
