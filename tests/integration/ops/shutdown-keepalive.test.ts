/**
 * SIGTERM with clients on kept-alive connections (issue 63): 8 clients, each a Node keep-alive agent
 * as a directory's or a browser's connection pool (two of them a directory creating people by SCIM), keep sending (some back to back, some pausing
 * longer than the server's idle grace) through the signal until the server stops listening. Every
 * request that reaches the process gets a complete answer; none is reset or cut. A refused
 * connection (the listener closed) reached nothing and is where each client stops. 10 trials, with
 * SHUTDOWN_DRAIN_MS 0 and 2000.
 */
import http from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { findHaproxy, startLbCluster } from "../../../scripts/bench/cluster";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { SCIM_TOKEN } from "../../support/scim";
import { startBuiltServer } from "../../support/server";

const CLIENTS = 8;
const TRIALS = 10;
/** Pauses between a client's requests: back to back, short, and longer than the server's idle grace (1 s). */
const PAUSES_MS = [0, 0, 20, 50, 200, 400, 1100, 1500];

interface ClientRun {
  answers: number;
  afterSignal: number;
  /** Requests that reached the server and got no complete answer: error code and whether the socket was reused. */
  failures: string[];
}

type Kind = "agent" | "fetch" | "scim";
/** Each client's kind: Node agents and fetch (undici) reading a page, and two directories syncing (SCIM creates). */
const KINDS: readonly Kind[] = ["agent", "fetch", "scim", "scim", "agent", "fetch", "agent", "fetch"];
const SCIM_USER = "urn:ietf:params:scim:schemas:core:2.0:User";
let created = 0;

/** One request through Node's fetch (undici, its global keep-alive pool): null when answered 200 in full. */
async function viaFetch(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    const body = await response.arrayBuffer();
    // fetch decodes a compressed body: its length is checked against Content-Length only when sent as is.
    const sentAsIs = !response.headers.get("content-encoding");
    const length = sentAsIs ? Number(response.headers.get("content-length") ?? body.byteLength) : body.byteLength;
    return response.status === 200 && body.byteLength === length
      ? null
      : `resposta incompleta (${response.status}, ${body.byteLength} bytes)`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === "ECONNREFUSED") return "recusada";
    return `fetch: ${cause?.code ?? cause?.message ?? String(error)}`;
  }
}

/**
 * One client: requests on its own keep-alive agent until a connection is refused — or, given `done`
 * (through the balancer, where nothing may be refused), until `done()`, a refusal then being a failure.
 */
async function client(
  kind: Kind,
  url: string,
  path: string,
  pauseMs: number,
  signalled: () => boolean,
  done?: () => boolean,
): Promise<ClientRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const run: ClientRun = { answers: 0, afterSignal: 0, failures: [] };
  try {
    for (;;) {
      const after = signalled();
      const outcome =
        kind === "fetch"
          ? await viaFetch(`${url}${path}`)
          : await new Promise<string | null>((resolve) => {
              // A directory's sync: a new person each time (a write, not idempotent), on its kept-alive connection.
              const scimBody =
                kind === "scim"
                  ? JSON.stringify({ schemas: [SCIM_USER], userName: `sinc-${process.pid}-${Date.now()}-${++created}@b1.example.com` })
                  : undefined;
              const request = http.request(
                kind === "scim" ? `${url}/scim/v2/Users` : `${url}${path}`,
                {
                  agent,
                  method: kind === "scim" ? "POST" : "GET",
                  headers:
                    kind === "scim"
                      ? { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json", accept: "application/scim+json" }
                      : {},
                },
                (response) => {
                  let bytes = 0;
                  response.on("data", (chunk: Buffer) => (bytes += chunk.length));
                  response.on("end", () => {
                    const complete = response.complete && bytes === Number(response.headers["content-length"] ?? bytes);
                    resolve(
                      complete && response.statusCode === (kind === "scim" ? 201 : 200)
                        ? null
                        : `resposta incompleta (${response.statusCode}, ${bytes} bytes)`,
                    );
                  });
                  response.on("error", (error: NodeJS.ErrnoException) => resolve(`${error.code ?? error.message} no corpo`));
                },
              );
              request.end(scimBody);
              request.setTimeout(15_000, () => request.destroy(new Error("sem resposta em 15 s")));
              request.on("error", (error: NodeJS.ErrnoException) => {
                if (error.code === "ECONNREFUSED") return resolve("recusada");
                resolve(`${error.code ?? error.message}${request.reusedSocket ? " (conexão reaproveitada)" : ""}`);
              });
            });
      if (outcome === "recusada" && !done) return run;
      if (done?.()) return run;
      if (outcome === null) {
        run.answers++;
        if (after) run.afterSignal++;
      } else run.failures.push(outcome);
      if (pauseMs) await delay(pauseMs);
    }
  } finally {
    agent.destroy();
  }
}

/** "ECONNRESET ×3, …": each failure once, with how often. */
function summary(failures: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const failure of failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  return [...counts].map(([failure, count]) => `${failure} ×${count}`).join(", ");
}

async function trial(drainMs: number) {
  const server = await startBuiltServer({ SHUTDOWN_DRAIN_MS: String(drainMs), SCIM_TOKEN, RATE_LIMIT_MULTIPLIER: "1000000" });
  try {
    let signalled = false;
    const runs = PAUSES_MS.slice(0, CLIENTS).map((pause, index) => client(KINDS[index]!, server.url, "/auth", pause, () => signalled));
    await delay(1_500);
    process.kill(server.pid, "SIGTERM");
    signalled = true;
    const results = await Promise.all(runs);
    return { results, exit: await server.exited };
  } finally {
    await server.stop();
  }
}

describe("SIGTERM with clients on kept-alive connections", () => {
  it(`answers every request that reaches the process, resets none (${TRIALS} trials, drain 0 and 2 s)`, { timeout: 240_000 }, async () => {
    const lines: string[] = [];
    const failures: string[] = [];
    for (let index = 0; index < TRIALS; index++) {
      const drainMs = index % 2 === 0 ? 0 : 2000;
      const { results, exit } = await trial(drainMs);
      const failed = results.flatMap((run) => run.failures);
      failures.push(...failed.map((failure) => `tentativa ${index + 1}: ${failure}`));
      lines.push(
        `tentativa ${index + 1} (drenagem ${drainMs} ms): ${results.reduce((sum, run) => sum + run.answers, 0)} respostas, ` +
          `${results.reduce((sum, run) => sum + run.afterSignal, 0)} depois do sinal, ${failed.length} falhas${failed.length ? ` (${summary(failed)})` : ""}; saída ${exit}`,
      );
      expect(exit).toBe(0);
    }
    console.log(lines.join("\n"));
    expect(summary(failures)).toBe("");
  });
});

describe.skipIf(!onPostgres || !findHaproxy())("SIGTERM to one of two instances behind HAProxy, clients on kept-alive connections", () => {
  it(`every request is answered 200, none reset or refused (${TRIALS} trials, drain 0 and 2 s)`, { timeout: 300_000 }, async () => {
    const lines: string[] = [];
    const failures: string[] = [];
    const databaseUrl = (await freshDatabaseUrl())!;
    for (let index = 0; index < TRIALS; index++) {
      const drainMs = index % 2 === 0 ? 0 : 2000;
      const cluster = await startLbCluster({ databaseUrl, instances: 2, env: { SHUTDOWN_DRAIN_MS: String(drainMs), SCIM_TOKEN } });
      try {
        let signalled = false;
        let finished = false;
        // Through the balancer nothing is refused: the clients stop once the instance has exited.
        const runs = PAUSES_MS.slice(0, CLIENTS).map((pause, index) =>
          client(
            KINDS[index]!,
            cluster.url,
            "/auth",
            pause,
            () => signalled,
            () => finished,
          ),
        );
        await delay(1_500);
        const [gate] = cluster.gates;
        gate!.child.kill("SIGTERM");
        signalled = true;
        const exit = await new Promise<number | string>((resolve) =>
          gate!.child.once("exit", (code, signal) => resolve(code ?? signal ?? "")),
        );
        await delay(500);
        finished = true;
        const results = await Promise.all(runs);
        const failed = results.flatMap((run) => run.failures);
        failures.push(...failed.map((failure) => `tentativa ${index + 1}: ${failure}`));
        lines.push(
          `HAProxy, tentativa ${index + 1} (drenagem ${drainMs} ms): ${results.reduce((sum, run) => sum + run.answers, 0)} respostas, ` +
            `${results.reduce((sum, run) => sum + run.afterSignal, 0)} depois do sinal, ${failed.length} falhas${failed.length ? ` (${summary(failed)})` : ""}; saída ${exit}`,
        );
        expect(exit).toBe(0);
      } finally {
        await cluster.stop();
      }
    }
    console.log(lines.join("\n"));
    expect(summary(failures)).toBe("");
  });
});
