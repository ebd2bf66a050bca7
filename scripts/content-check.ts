/**
 * `npm run content:check`: validates every content file; prints `arquivo:linha: mensagem`, exit 1 on any problem.
 * Also lists, without failing, every action still without a link or file (its button reads 'Em breve').
 */
import { checkContent, formatProblem } from "./content/check.ts";
import { readingHistory } from "./content/reading-history.ts";

const checked = checkContent(process.cwd());
const { pages, downloads, missing } = checked;
const problems = [...checked.problems, ...readingHistory(process.cwd(), checked.required).problems];
if (missing.length) {
  console.log(`Sem link nem arquivo (o botão mostra 'Em breve'): ${missing.length} item(ns)`);
  for (const item of missing) console.log(`  ${item.file}:${item.line}: ${item.name}`);
  console.log("");
}
for (const problem of problems) console.error(formatProblem(problem));
if (problems.length) {
  console.error(`\n${problems.length} problema(s) no conteúdo.`);
  process.exit(1);
}
console.log(
  `content:check: conteúdo válido (${pages.length} página(s) em MDX, ${downloads.length} arquivo(s) para download, ${missing.length} item(ns) sem link).`,
);
