import { createLogger } from "../../src/lib/server/platform/logger";

/** A real JSON logger whose lines are kept in memory, parsed. */
export function captureLogs() {
  const lines: string[] = [];
  const logger = createLogger({ LOG_LEVEL: "debug" }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
