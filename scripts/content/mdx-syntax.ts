/**
 * MDX syntax problems in Portuguese, with the file's line and column: the same words from
 * `npm run content:check`, the build, and `astro dev` (browser overlay and terminal). The check
 * compiles the body with satteri, the compiler Astro's MDX integration uses, so what passes here
 * compiles there; its English messages are translated for the common slips and kept, quoted, as
 * the detail of the rest.
 */
import { mdxToJs } from "satteri";
import type { Problem } from "./problem.ts";

/** Known compiler messages and how an editor reads them. */
const TRANSLATIONS: [RegExp, (match: RegExpExecArray) => string][] = [
  [
    /Expected a closing tag for `<([^>`]+)>`/,
    (m) => `a tag <${m[1]}> foi aberta e não foi fechada: feche com </${m[1]}> (ou escreva <${m[1]} />)`,
  ],
  [
    /Unexpected closing tag `<\/([^>`]+)>`, expected corresponding closing tag for `<([^>`]+)>`/,
    (m) => `</${m[1]}> fecha uma tag que não está aberta aqui: a aberta é <${m[2]}>`,
  ],
  [
    /Expected the closing tag `<\/([^>`]+)>` either after the end of `(\w+)`.*opened at (\d+):\d+/,
    (m) =>
      `</${m[1]}> precisa fechar no mesmo bloco em que <${m[1]}> abriu: deixe uma linha em branco depois de <${m[1]}> e outra antes de </${m[1]}>`,
  ],
  [/Unexpected closing slash `\/` in tag, expected an open tag first/, () => "tag de fechamento sem a de abertura correspondente"],
  [
    /Could not parse expression with \w+/,
    () => "expressão entre chaves { } inválida: confira o que está entre elas (para escrever uma chave no texto, use \\{ )",
  ],
  [
    /Unexpected end of file in expression, expected a corresponding closing brace for `\{`/,
    () => "uma chave { foi aberta e não foi fechada",
  ],
  [/Unexpected end of file (after|in) .*tag/, () => "o arquivo termina no meio de uma tag: feche o < … >"],
  [
    /Unexpected character after `<`, expected a valid JSX tag/,
    () => "um < no texto abre uma tag: para escrever o sinal, use &lt; (e um link, [texto](endereço))",
  ],
  [
    /Unexpected character `(.)` .* before name/,
    (m) => `caractere inesperado ${m[1]} logo depois de < (para escrever < no texto, use &lt;)`,
  ],
  [
    /Unexpected lazy line in/,
    () => "linha de continuação inesperada dentro de uma tag ou expressão: deixe a tag numa linha só ou indente as linhas seguintes",
  ],
];

/** The body's MDX syntax problem, if any; lines are the file's (`bodyStartLine` is where the body starts). */
export function mdxSyntaxProblem(file: string, body: string, bodyStartLine: number): Problem | null {
  try {
    mdxToJs(body, {});
    return null;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const at = /^(\d+):(\d+):\s*/.exec(text);
    const line = at ? bodyStartLine + Number(at[1]) - 1 : bodyStartLine;
    const column = at ? Number(at[2]) : undefined;
    const detail = text
      .slice(at ? at[0].length : 0)
      .replace(/\s*\(\d+:\d+\)/, "")
      .replace(/\s*\([\w-]+:[\w-]+\)\s*$/, "");
    const known = TRANSLATIONS.map(([pattern, say]) => {
      const match = pattern.exec(detail);
      return match ? say(match) : null;
    }).find((message) => message !== null);
    return { file, line, ...(column ? { column } : {}), message: known ?? `MDX inválido (mensagem do compilador: "${detail}")` };
  }
}

/** `import`/`export` lines: the pages' components are provided to every MDX file, nothing is imported. */
export function moduleLineProblem(file: string, line: string, lineNumber: number): Problem | null {
  if (!/^(import|export)\s/.test(line)) return null;
  return {
    file,
    line: lineNumber,
    column: 1,
    message: "as páginas em MDX não usam import nem export: os componentes (Aviso, Acao…) já estão disponíveis em todas",
  };
}
