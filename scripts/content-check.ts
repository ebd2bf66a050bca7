/** `npm run content:check`: validates every content file; prints `arquivo:linha: mensagem`, exit 1 on any problem. */
import { checkContent, formatProblem } from "./content/check.ts";
import { readingHistory } from "./content/reading-history.ts";

const checked = checkContent(process.cwd());
const { pages } = checked;
const problems = [...checked.problems, ...readingHistory(process.cwd(), checked.required).problems];
for (const problem of problems) console.error(formatProblem(problem));
if (problems.length) {
  console.error(`\n${problems.length} problema(s) no conteúdo.`);
  process.exit(1);
}
console.log(`content:check: conteúdo válido (${pages.length} página(s) em MDX).`);
