/** One problem found in a content file, shown to editors as `arquivo:linha: mensagem`. */
export interface Problem {
  file: string;
  line: number;
  message: string;
}

export const formatProblem = (problem: Problem) => `${problem.file}:${problem.line}: ${problem.message}`;
