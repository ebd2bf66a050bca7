/** `npm run content:check`: validates every content file; prints `arquivo:linha: mensagem`, exit 1 on any problem. */
import { checkContent, formatProblem } from "./content/check.ts";

const { pages, problems } = checkContent(process.cwd());
for (const problem of problems) console.error(formatProblem(problem));
if (problems.length) {
  console.error(`\n${problems.length} problema(s) no conteúdo.`);
  process.exit(1);
}
console.log(`content:check: conteúdo válido (${pages.length} página(s) em MDX).`);
