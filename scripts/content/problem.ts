/** One problem found in a content file, shown to editors as `arquivo:linha: mensagem`. */
export interface Problem {
  file: string;
  line: number;
  /** Column (1-based) when the problem is at one point of the line (an MDX syntax error). */
  column?: number;
  message: string;
}

export const formatProblem = (problem: Problem) =>
  `${problem.file}:${problem.line}${problem.column ? `:${problem.column}` : ""}: ${problem.message}`;
