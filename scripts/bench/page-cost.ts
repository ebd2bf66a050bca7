/**
 * What a signed-in page costs the gate, next to the two servers it is judged against, on the very
 * same bytes: sirv serving the page the gate rendered for this user (and its brotli form) from
 * files, and a bare node:http server answering from memory with the status, headers and body the
 * gate sent. The three are loaded one at a time with the same client (50 connections, fresh
 * process), in alternating rounds (--rounds, 3 by default); medians reported. Requests per second move with whatever
 * else this machine runs; CPU time per request (read from /proc before and after) hardly does.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { cpuSeconds, runClient, startServer } from "./process.ts";

export const COST_PAGES = ["/faq", "/templates"] as const;
export const ENCODINGS = ["identity", "br"] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface ServerLoad {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** CPU time of the server process (every thread) divided by the requests it answered. */
  cpuUsPerRequest: number;
  non2xx: number;
}

export interface PageCost {
  page: string;
  encoding: Encoding;
  bytes: number;
  gate: ServerLoad;
  sirv: ServerLoad;
  bare: ServerLoad;
  /** CPU per request, gate ÷ bare and gate ÷ sirv. */
  gateOverBare: number;
  gateOverSirv: number;
}

interface Captured {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Target {
  pid: number;
  url: string;
}

const CONNECTIONS = 50;
/** Alternating rounds per scenario (medians reported); the request log's comparison takes at least 6. */
export const DEFAULT_ROUNDS = 3;
/** Headers node:http writes itself on every response (or that describe this one connection). */
const PER_CONNECTION = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

function requestHeaders(cookie: string, encoding: Encoding): Record<string, string> {
  // What a browser sends: every current browser accepts brotli and gzip.
  return encoding === "br" ? { cookie, "accept-encoding": "gzip, deflate, br, zstd" } : { cookie };
}

/** One GET with the raw bytes kept (no decompression), headers with the case the server wrote. */
function capture(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const kept: Record<string, string> = {};
          const raw = response.rawHeaders;
          for (let index = 0; index < raw.length; index += 2) {
            if (!PER_CONNECTION.has(raw[index]!.toLowerCase())) kept[raw[index]!] = raw[index + 1]!;
          }
          resolve({ status: response.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}

/** One load window against one server, with its CPU time per answered request. */
async function measure(target: Target, path: string, headers: Record<string, string>, seconds: number): Promise<ServerLoad> {
  const cpuBefore = cpuSeconds(target.pid);
  const load = await runClient<Omit<ServerLoad, "cpuUsPerRequest"> & { requests: number }>("scripts/bench/cost-client.mjs", [
    target.url + path,
    JSON.stringify(headers),
    String(CONNECTIONS),
    String(seconds),
  ]);
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  return {
    reqPerSec: load.reqPerSec,
    p50: load.p50,
    p99: load.p99,
    cpuUsPerRequest: load.requests ? round((cpu * 1e6) / load.requests) : 0,
    non2xx: load.non2xx,
  };
}

function medianLoad(runs: ServerLoad[]): ServerLoad {
  return {
    reqPerSec: median(runs.map((run) => run.reqPerSec)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    cpuUsPerRequest: median(runs.map((run) => run.cpuUsPerRequest)),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  };
}

export interface PageCostOptions {
  gate: Target;
  /** The signed-in user's `Cookie` header value. */
  cookie: string;
  /** Seconds of load per server and scenario, split over the rounds. */
  seconds: number;
  /** Where the captured pages are written for sirv and the bare server. */
  workDir: string;
  /**
   * Starts a fresh gate on the same database with extra environment: two of them, one with the
   * request log (LOG_LEVEL=info) and one without (error), give what the log costs.
   */
  startGate?: (env: Record<string, string>) => Promise<Target & { stop: () => void }>;
  rounds?: number;
}

export interface PageCostFigures {
  pages: PageCost[];
  /** CPU per request of /faq (identity), with and without the request log, and the log's share. */
  requestLog: { withLogUs: number; withoutLogUs: number; share: number } | null;
}

export async function benchPageCost(options: PageCostOptions): Promise<PageCostFigures> {
  const { gate, cookie, workDir } = options;
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const seconds = Math.max(2, Math.round(options.seconds / rounds));
  // The gate's own answers, captured once, become sirv's files and the bare server's table.
  const answers: Record<string, Partial<Record<Encoding, Captured>>> = {};
  for (const page of COST_PAGES) {
    answers[page] = {};
    for (const encoding of ENCODINGS) {
      const answer = await capture(gate.url + page, requestHeaders(cookie, encoding));
      if (answer.status !== 200) throw new Error(`o gate respondeu ${answer.status} para ${page}`);
      if ((answer.headers["Content-Encoding"] ?? "identity") !== encoding) throw new Error(`${page}: ${encoding} não veio do gate`);
      answers[page]![encoding] = answer;
      const file = path.join(workDir, "pages", page, encoding === "br" ? "index.html.br" : "index.html");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, answer.body);
    }
  }
  const table = path.join(workDir, "answers.json");
  fs.writeFileSync(
    table,
    JSON.stringify(
      Object.fromEntries(
        Object.entries(answers).map(([page, byEncoding]) => [
          page,
          Object.fromEntries(Object.entries(byEncoding).map(([encoding, a]) => [encoding, { ...a, body: a.body.toString("base64") }])),
        ]),
      ),
    ),
  );
  const sirv = await startServer(
    process.execPath,
    ["scripts/bench/static-server.mjs", path.join(workDir, "pages"), "0"],
    {},
    /static on (\d+)/,
  );
  const bare = await startServer(process.execPath, ["scripts/bench/bare-server.mjs", table], {}, /bare on (\d+)/);
  const servers = {
    gate,
    sirv: { pid: sirv.child.pid!, url: `http://127.0.0.1:${sirv.match[1]}` },
    bare: { pid: bare.child.pid!, url: `http://127.0.0.1:${bare.match[1]}` },
  };
  try {
    const pages: PageCost[] = [];
    for (const page of COST_PAGES) {
      for (const encoding of ENCODINGS) {
        const headers = requestHeaders(cookie, encoding);
        const runs: Record<keyof typeof servers, ServerLoad[]> = { gate: [], sirv: [], bare: [] };
        for (const target of Object.values(servers)) await measure(target, page, headers, 1); // warm-up
        const order = Object.entries(servers) as [keyof typeof servers, Target][];
        for (let round = 0; round < rounds; round++) {
          // Each round starts with the next server, so no one always runs first (or right after another).
          for (let turn = 0; turn < order.length; turn++) {
            const [name, target] = order[(round + turn) % order.length]!;
            runs[name].push(await measure(target, page, headers, seconds));
          }
        }
        const [gateLoad, sirvLoad, bareLoad] = [medianLoad(runs.gate), medianLoad(runs.sirv), medianLoad(runs.bare)];
        pages.push({
          page,
          encoding,
          bytes: answers[page]![encoding]!.body.length,
          gate: gateLoad,
          sirv: sirvLoad,
          bare: bareLoad,
          gateOverBare: round(gateLoad.cpuUsPerRequest / bareLoad.cpuUsPerRequest, 2),
          gateOverSirv: round(gateLoad.cpuUsPerRequest / sirvLoad.cpuUsPerRequest, 2),
        });
      }
    }
    let requestLog: PageCostFigures["requestLog"] = null;
    if (options.startGate) {
      // Two fresh processes started together: the main gate has served every scenario above, and a
      // longer-lived heap would be counted as the log's cost.
      const loud = await options.startGate({ LOG_LEVEL: "info" });
      const quiet = await options.startGate({ LOG_LEVEL: "error" });
      try {
        const headers = requestHeaders(cookie, "identity");
        await measure(loud, "/faq", headers, 2);
        await measure(quiet, "/faq", headers, 2);
        const withLog: number[] = [];
        const withoutLog: number[] = [];
        // The difference is a few µs in ~60: more rounds than the comparison above, in A-B, B-A order.
        for (let round = 0; round < Math.max(6, rounds); round++) {
          const pair = round % 2 === 0 ? [loud, quiet] : [quiet, loud];
          for (const target of pair) {
            const cost = (await measure(target, "/faq", headers, seconds)).cpuUsPerRequest;
            (target === loud ? withLog : withoutLog).push(cost);
          }
        }
        const withLogUs = median(withLog);
        const withoutLogUs = median(withoutLog);
        requestLog = { withLogUs, withoutLogUs, share: round(Math.max(0, withLogUs - withoutLogUs) / withLogUs, 3) };
      } finally {
        loud.stop();
        quiet.stop();
      }
    }
    return { pages, requestLog };
  } finally {
    sirv.child.kill();
    bare.child.kill();
  }
}

/** yes/no per target of the page-cost comparison. */
export function pageCostTargets(figures: PageCostFigures): Record<string, boolean> {
  const targets: Record<string, boolean> = {};
  for (const cost of figures.pages) {
    targets[`GET ${cost.page} (${cost.encoding}): CPU do gate ≤ 1,5× node:http puro`] = cost.gateOverBare <= 1.5;
  }
  targets["p99 do gate ≤ 10 ms (50 conexões, cada página e codificação)"] = figures.pages.every((cost) => cost.gate.p99 <= 10);
  if (figures.requestLog) targets["log de requisições ≤ 10 % da CPU do gate"] = figures.requestLog.share <= 0.1;
  return targets;
}
