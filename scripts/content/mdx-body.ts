/** Checks of MDX bodies: only the editors' components, and internal links that lead to a page of the portal. */
import { MDX_COMPONENT_NAMES } from "../../src/components/mdx/names.ts";
import type { Problem } from "./problem.ts";
import type { MissingLink } from "./downloads.ts";
import { moduleLineProblem, mdxSyntaxProblem } from "./mdx-syntax.ts";

export interface MdxFile {
  file: string;
  body: string;
  /** Line (1-based) of the file where the body starts. */
  bodyStartLine: number;
  /** The portal page that shows this body. */
  page: string;
}

/** What the bodies offer: files named by `<Acao arquivo="…">` and actions with `href=""`. */
export interface BodyLinks {
  offer: (name: string, where: { file: string; line: number }, page: string) => void;
  missing: (entry: MissingLink) => void;
}

/** Lines of the body outside fenced code, with inline code blanked (examples are not checked). */
function codeFreeLines(body: string): string[] {
  let fenced = false;
  return body.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length));
  });
}

export function checkBodies(bodies: readonly MdxFile[], knownPaths: ReadonlySet<string>, problems: Problem[], links: BodyLinks): void {
  const components = new Set<string>(MDX_COMPONENT_NAMES);
  for (const { file, body, bodyStartLine, page } of bodies) {
    const syntax = mdxSyntaxProblem(file, body, bodyStartLine);
    if (syntax) problems.push(syntax);
    codeFreeLines(body).forEach((line, index) => {
      const lineNumber = bodyStartLine + index;
      const moduleLine = moduleLineProblem(file, line, lineNumber);
      if (moduleLine) problems.push(moduleLine);
      for (const match of line.matchAll(/<Acao\b[^>]*/g)) {
        const tag = match[0];
        const rotulo = /\brotulo=["']([^"']*)["']/.exec(tag)?.[1] ?? "Acao";
        const arquivo = /\barquivo=["']([^"']*)["']/.exec(tag)?.[1];
        if (arquivo) links.offer(arquivo, { file, line: lineNumber }, page);
        else if (!/\bhref=["'][^"']+["']/.test(tag)) links.missing({ file, line: lineNumber, name: rotulo });
      }
      for (const match of line.matchAll(/<([A-Z][\w.]*)/g)) {
        if (!components.has(match[1]!)) {
          problems.push({
            file,
            line: lineNumber,
            message: `componente desconhecido <${match[1]}>: use um de ${MDX_COMPONENT_NAMES.join(", ")}`,
          });
        }
      }
      for (const match of line.matchAll(/\]\((\/[^)\s]*)\)|\bhref=["'](\/[^"']*)["']/g)) {
        const target = (match[1] ?? match[2])!;
        const pathOnly = target.split(/[?#]/)[0]!.replace(/\/+$/, "") || "/";
        if (!knownPaths.has(pathOnly))
          problems.push({ file, line: lineNumber, message: `link interno quebrado: ${target} não é uma página do portal` });
      }
    });
  }
}
