import { LineCounter, Parser, parseDocument, isMap, isPair, isScalar, type Document, type YAMLError } from "yaml";

/** A Markdown/MDX file split into its YAML frontmatter and body, keeping line numbers. */
export interface SplitFile {
  /** The parsed frontmatter document (null when the file has none). */
  doc: Document | null;
  /** Line (1-based) where the frontmatter's YAML starts. */
  yamlStartLine: number;
  lineCounter: LineCounter;
  /** The frontmatter's YAML text ('' when there is none). */
  yaml: string;
  body: string;
  /** Line (1-based) where the body starts. */
  bodyStartLine: number;
}

export function splitFrontmatter(text: string): SplitFile {
  const lineCounter = new LineCounter();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { doc: null, yamlStartLine: 1, lineCounter, yaml: "", body: text, bodyStartLine: 1 };
  const doc = parseDocument(match[1]!, { lineCounter, prettyErrors: false });
  const bodyStartLine = match[0].split("\n").length - (match[0].endsWith("\n") ? 1 : 0) + 1;
  return { doc, yamlStartLine: 2, lineCounter, yaml: match[1]!, body: text.slice(match[0].length), bodyStartLine };
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

/** Offset where the quoted scalar holding `offset` opens, found in the parser's tokens (null when none holds it). */
function openingQuoteOffset(text: string, offset: number): number | null {
  let found: number | null = null;
  const visit = (token: unknown): void => {
    if (found !== null || !token || typeof token !== "object") return;
    if (Array.isArray(token)) return token.forEach(visit);
    const { type, offset: start, source } = token as { type?: string; offset?: number; source?: string };
    if ((type === "double-quoted-scalar" || type === "single-quoted-scalar") && start !== undefined && source !== undefined) {
      if (start <= offset && offset <= start + source.length) found = start;
      return;
    }
    for (const value of Object.values(token)) visit(value);
  };
  for (const token of new Parser().parse(text)) visit(token);
  return found;
}

/** Portuguese wording of the YAML library's error codes editors meet; others keep the library's text after a Portuguese lead. */
const YAML_MESSAGES: Partial<Record<YAMLError["code"], string>> = {
  UNEXPECTED_TOKEN: "texto inesperado nesta linha: confira aspas, vírgulas, chaves e colchetes",
  BAD_INDENT: "indentação incorreta: alinhe com os itens vizinhos (use espaços)",
  TAB_AS_INDENT: "use espaços, não tab, para indentar",
  DUPLICATE_KEY: "campo repetido no mesmo item",
  MISSING_CHAR: "falta fechar chaves }, colchetes ] ou aspas nesta linha",
  BLOCK_AS_IMPLICIT_KEY: "falta ':' depois do nome do campo, ou há uma quebra de linha no meio dele",
  MULTILINE_IMPLICIT_KEY: "falta ':' depois do nome do campo, ou há uma quebra de linha no meio dele",
  BAD_DQ_ESCAPE: "barra invertida inválida entre aspas: escreva \\\\ para uma barra ou use aspas simples",
  BAD_SCALAR_START: "um texto não pode começar com este caractere: ponha o texto entre aspas",
};

/**
 * Line (1-based, within `text`) and Portuguese message of a YAML syntax error. A quote left open
 * runs on to the next quote or the end of the text, where the parser notices it: the line named
 * is the one where the quote opens, which is where the editor has to fix it.
 */
export function describeYamlError(text: string, error: YAMLError, lineCounter: LineCounter): { line: number; message: string } {
  if (error.code === "MISSING_CHAR" && /quote/i.test(error.message)) {
    const start = openingQuoteOffset(text, error.pos[0]) ?? error.pos[0];
    const quote = text[start] === "'" ? "'" : '"';
    return { line: lineCounter.linePos(start).line, message: `aspas abertas e não fechadas: feche o texto com ${quote} na mesma linha` };
  }
  const message = YAML_MESSAGES[error.code] ?? `erro de sintaxe (${error.message.split("\n")[0]!})`;
  return { line: lineCounter.linePos(error.pos[0]).line, message };
}
