import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createLogger,
  createRequestLog,
  LineBatch,
  LOG_BATCH_CHARS,
  LOG_FLUSH_MS,
  type RequestLine,
} from "../../../src/lib/server/platform/logger";
import { captureLogs } from "../../support/log-capture";

function line(overrides: Partial<RequestLine> = {}): RequestLine {
  return {
    id: "5f0c8a3e-2b1d-4c6e-9f7a-0d1e2f3a4b5c",
    method: "GET",
    path: "/faq",
    status: 200,
    durationMs: 1.25,
    bytes: 51234,
    userId: "user-1",
    aborted: false,
    quiet: false,
    ...overrides,
  };
}

describe("the request line", () => {
  it("says what pino said for the same request: level, time, pid, the fields and the message", () => {
    const fast = captureLogs();
    createRequestLog(fast.logger)(line());
    const slow = captureLogs();
    slow.logger.info(
      { reqId: line().id, method: "GET", path: "/faq", status: 200, durationMs: 1.25, bytes: 51234, userId: "user-1" },
      "requisição",
    );
    const [written] = fast.records();
    const [reference] = slow.records();
    expect(Object.keys(written!)).toEqual(Object.keys(reference!));
    expect({ ...written, time: undefined }).toEqual({ ...reference, time: undefined });
    expect(new Date(written!.time as string).toISOString()).toBe(written!.time);
  });

  it("leaves out a missing user, marks an aborted response and stays one valid JSON line whatever the path holds", () => {
    const logs = captureLogs();
    const log = createRequestLog(logs.logger);
    const path = '/a"b\\c\nd\u0000é\ud800';
    log(line({ userId: null, aborted: true, path, status: 404 }));
    log(line({ path: null }));
    expect(logs.lines.every((text) => text.endsWith("}\n") && !text.slice(0, -1).includes("\n"))).toBe(true);
    const [odd, unread] = logs.records();
    expect(odd).not.toHaveProperty("userId");
    expect(odd).toMatchObject({ aborted: true, status: 404, path });
    expect(unread).toMatchObject({ path: null });
    expect(unread).not.toHaveProperty("aborted");
  });

  it("writes probes at debug and nothing below the logger's level", () => {
    const lines: string[] = [];
    const logger = createLogger({ LOG_LEVEL: "info" }, { write: (text: string) => void lines.push(text) });
    const log = createRequestLog(logger);
    log(line({ quiet: true }));
    expect(lines).toHaveLength(0);
    log(line());
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: "requisição" });
    logger.level = "error";
    log(line());
    expect(lines).toHaveLength(1);
  });
});

describe("the log batch", () => {
  afterEach(() => vi.useRealTimers());

  function fakeSink() {
    const writes: string[] = [];
    let synced = 0;
    return {
      writes,
      synced: () => synced,
      sink: { write: (chunk: Buffer) => void writes.push(chunk.toString("utf8")), flushSync: () => void synced++ },
    };
  }

  it(`holds lines for ${LOG_FLUSH_MS} ms, then writes them in one write, in order`, () => {
    vi.useFakeTimers();
    const { writes, sink } = fakeSink();
    const batch = new LineBatch(sink);
    batch.write("a\n");
    batch.write("b\n");
    vi.advanceTimersByTime(LOG_FLUSH_MS - 1);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["a\nb\n"]);
    batch.write("c\n");
    vi.advanceTimersByTime(LOG_FLUSH_MS);
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("writes a warning or an error at once, after the lines that waited before it", () => {
    vi.useFakeTimers();
    const { writes, sink } = fakeSink();
    const batch = new LineBatch(sink);
    const request = '{"level":30,"msg":"requisição"}\n';
    const error = '{"level":50,"msg":"erro não tratado"}\n';
    batch.write(request);
    expect(writes).toEqual([]);
    batch.write(error);
    expect(writes).toEqual([request + error]);
    batch.write('{"level":40,"msg":"aviso"}\n');
    expect(writes).toHaveLength(2);
  });

  it("writes at once when the batch is full, and everything waiting, synchronously, on the way out", () => {
    vi.useFakeTimers();
    const { writes, sink, synced } = fakeSink();
    const exitHandlers = process.listenerCount("exit");
    const batch = new LineBatch(sink);
    expect(process.listenerCount("exit")).toBe(exitHandlers + 1);
    const long = "x".repeat(LOG_BATCH_CHARS - 1) + "\n";
    batch.write(long);
    expect(writes).toEqual([long]);
    batch.write("last\n");
    // What the exit handler runs (the real exit, after SIGTERM, is tests/integration/ops/request-log.test.ts).
    batch.flushSync();
    expect(writes).toEqual([long, "last\n"]);
    expect(synced()).toBe(1);
  });
});
