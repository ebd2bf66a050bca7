/**
 * SIGTERM with clients on kept-alive connections (issue 63): 8 clients, each a Node keep-alive agent
 * as a directory's or a browser's connection pool, keep sending (some back to back, some pausing
 * longer than the server's idle grace) through the signal until the server stops listening. Every
 * request that reaches the process gets a complete answer; none is reset or cut. A refused
 * connection (the listener closed) reached nothing and is where each client stops. 10 trials, with
 * SHUTDOWN_DRAIN_MS 0 and 2000.
 */
import http from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
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

/** One client: requests on its own keep-alive agent until a connection is refused. */
async function client(url: string, path: string, pauseMs: number, signalled: () => boolean): Promise<ClientRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const run: ClientRun = { answers: 0, afterSignal: 0, failures: [] };
  try {
    for (;;) {
      const after = signalled();
      const outcome = await new Promise<string | null>((resolve) => {
        const request = http.get(`${url}${path}`, { agent }, (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => (bytes += chunk.length));
          response.on("end", () => {
            const complete = response.complete && bytes === Number(response.headers["content-length"] ?? bytes);
            resolve(complete && response.statusCode === 200 ? null : `resposta incompleta (${response.statusCode}, ${bytes} bytes)`);
          });
          response.on("error", (error: NodeJS.ErrnoException) => resolve(`${error.code ?? error.message} no corpo`));
        });
        request.setTimeout(15_000, () => request.destroy(new Error("sem resposta em 15 s")));
        request.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") return resolve("recusada");
          resolve(`${error.code ?? error.message}${request.reusedSocket ? " (conexão reaproveitada)" : ""}`);
        });
      });
      if (outcome === "recusada") return run;
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

async function trial(drainMs: number) {
  const server = await startBuiltServer({ SHUTDOWN_DRAIN_MS: String(drainMs) });
  try {
    let signalled = false;
    const runs = PAUSES_MS.slice(0, CLIENTS).map((pause) => client(server.url, "/auth", pause, () => signalled));
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
          `${results.reduce((sum, run) => sum + run.afterSignal, 0)} depois do sinal, ${failed.length} falhas${failed.length ? ` (${failed.join(", ")})` : ""}; saída ${exit}`,
      );
      expect(exit).toBe(0);
    }
    console.log(lines.join("\n"));
    expect(failures).toEqual([]);
  });
});
