import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { readSettings, type Settings } from "../../settings.ts";

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

/** Lines wait at most this long in memory before they are written (a crash can lose this much). */
export const LOG_FLUSH_MS = 200;
/** …or until this many characters are waiting, whichever comes first. */
export const LOG_BATCH_CHARS = 64 * 1024;

/** `LOG_LEVEL` when it names a pino level; `info` otherwise. */
export function logLevelFrom(env: Settings): string {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return level && LEVELS.has(level) ? level : "info";
}

/** Readable lines for a person at a terminal (or LOG_PRETTY=1); JSON lines for everything else. */
export function wantsPrettyLogs(env: Settings, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  if (env.LOG_PRETTY === "1" || env.LOG_PRETTY === "true") return true;
  if (env.LOG_PRETTY === "0" || env.LOG_PRETTY === "false") return false;
  return stdoutIsTty;
}

/** The first digit of pino's warn (40), error (50) and fatal (60) levels. */
const URGENT_LEVEL_DIGIT = "4".charCodeAt(0);

interface Sink {
  write(chunk: Buffer): unknown;
  flushSync(): void;
}

/**
 * Log lines gathered in memory and handed to stdout in one write every LOG_FLUSH_MS (or sooner
 * once LOG_BATCH_CHARS wait, or with any warning or error), as nginx's `access_log … buffer=
 * flush=` does: a write per line cost the gate a thread-pool round trip per request. Everything the
 * process logs passes here, so the lines keep their order. Written synchronously at exit (a SIGTERM
 * stop, process.exit, an uncaught exception); a SIGKILL, an out-of-memory abort or a power cut
 * loses what was waiting (at most LOG_FLUSH_MS of request lines).
 */
export class LineBatch implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushSoon = () => this.flush();

  constructor(private readonly sink: Sink) {
    process.on("exit", () => this.flushSync());
  }

  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    // A warning, error or fatal line (pino writes the level first) goes out at once, with what waited before it.
    if (this.chars >= LOG_BATCH_CHARS || (line.startsWith('{"level":') && line.charCodeAt(9) >= URGENT_LEVEL_DIGIT)) this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(this.flushSoon, LOG_FLUSH_MS).unref();
  }

  /** Hands what is waiting to the stream (which writes it without blocking); pino's `logger.flush(cb)` lands here. */
  flush(callback?: (error?: Error) => void): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.chars > 0) {
      // Joined and encoded once per batch; the stream then writes the bytes as they are.
      const chunk = Buffer.from(this.lines.join(""));
      this.lines = [];
      this.chars = 0;
      this.sink.write(chunk);
    }
    callback?.();
  }

  /** Writes everything waiting before returning (at exit). */
  flushSync(): void {
    this.flush();
    this.sink.flushSync();
  }
}

/** A JSON-lines logger on stdout (or `destination`), level from LOG_LEVEL, secrets redacted. */
export function createLogger(env: Settings = readSettings(), destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: logLevelFrom(env),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[removido]" },
    serializers: { err: pino.stdSerializers.err },
  };
  if (destination) return pino(options, destination);
  if (wantsPrettyLogs(env)) return pino(options, pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid" }));
  // Asynchronous stdout behind the batch: a request never waits for its log line's write.
  // In "buffer" mode SonicBoom takes the batch's bytes as they are (its types only list strings).
  const stdout = pino.destination({ dest: 1, sync: false, contentMode: "buffer" }) as unknown as Sink;
  return pino(options, new LineBatch(stdout));
}

let shared: Logger | undefined;

/** The process-wide logger, created on first use. */
export function logger(): Logger {
  shared ??= createLogger();
  return shared;
}

/**
 * What one request line says; nothing else (never headers, cookies, bodies or the query string).
 * The listener fills these in on the request's own context object, so a line costs no new object.
 */
export interface RequestLine {
  /** Sent back as `X-Request-Id`; `reqId` in the line. */
  id: string;
  method: string;
  /** The gate's normalised path, or null when the raw one could not be read. */
  path: string | null;
  status: number;
  durationMs: number;
  bytes: number;
  userId: string | null;
  /** The client went away before the response was complete. */
  aborted: boolean;
  /** A health probe or metrics scrape that succeeded: logged at debug. */
  quiet: boolean;
}

/** Text JSON.stringify would write as is between quotes (no quote, backslash, control or non-ASCII character). */
const PLAIN = /^[^"\\\u0000-\u001f\u007f-\uffff]*$/;
const quoted = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

const INFO = pino.levels.values.info!;
const DEBUG = pino.levels.values.debug!;

/**
 * Writes request lines straight to `logger`'s stream, built from a fixed template instead of
 * pino's serialiser, redaction and hooks (they took ~30 % of the gate's CPU per page): the same
 * JSON pino writes (level, time, pid, the fields, msg), one line per request. `logger` must be
 * one made by createLogger (its stream, pid and time format are the ones reproduced here).
 */
export function createRequestLog(logger: Logger) {
  const stream = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym]!;
  const head = `,"pid":${process.pid},"reqId":`;
  let lastMs = 0;
  let lastTime = "";
  return function logRequest(line: RequestLine): void {
    const level = line.quiet ? DEBUG : INFO;
    if (level < logger.levelVal) return;
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastTime = new Date(now).toISOString();
    }
    stream.write(
      `{"level":${level},"time":"${lastTime}"${head}${quoted(line.id)},"method":${quoted(line.method)},"path":${line.path === null ? "null" : quoted(line.path)},"status":${line.status},"durationMs":${line.durationMs},"bytes":${line.bytes}` +
        (line.userId === null ? "" : `,"userId":${quoted(line.userId)}`) +
        (line.aborted ? `,"aborted":true` : "") +
        `,"msg":"requisição"}\n`,
    );
  };
}
