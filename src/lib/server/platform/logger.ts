import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

const LEVELS = new Set(Object.keys(pino.levels.values));

/** Defence in depth: request lines never carry these, but an error object might. */
const REDACTED_PATHS = [
  "password",
  "token",
  "cookie",
  "authorization",
  "*.password",
  "*.token",
  "*.cookie",
  "*.authorization",
  "headers.cookie",
  "headers.authorization",
  "headers['set-cookie']",
];

/** `LOG_LEVEL` when it names a pino level; `info` otherwise. */
export function logLevelFrom(env: NodeJS.ProcessEnv): string {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return level && LEVELS.has(level) ? level : "info";
}

/** Readable lines for a person at a terminal (or LOG_PRETTY=1); JSON lines for everything else. */
export function wantsPrettyLogs(env: NodeJS.ProcessEnv, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  if (env.LOG_PRETTY === "1" || env.LOG_PRETTY === "true") return true;
  if (env.LOG_PRETTY === "0" || env.LOG_PRETTY === "false") return false;
  return stdoutIsTty;
}

/** A JSON-lines logger on stdout (or `destination`), level from LOG_LEVEL, secrets redacted. */
export function createLogger(env: NodeJS.ProcessEnv = process.env, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: logLevelFrom(env),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[removido]" },
    serializers: { err: pino.stdSerializers.err },
  };
  if (destination) return pino(options, destination);
  if (wantsPrettyLogs(env)) return pino(options, pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid" }));
  // Asynchronous stdout: a request never waits for its log line's write (pino flushes on exit).
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

let shared: Logger | undefined;

/** The process-wide logger, created on first use. */
export function logger(): Logger {
  shared ??= createLogger();
  return shared;
}
