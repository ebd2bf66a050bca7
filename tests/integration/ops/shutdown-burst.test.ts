/**
 * SIGTERM during a burst of new connections, with the default drain: every connection whose TCP
 * handshake completed before the signal gets its answer (none is reset from the kernel's accept
 * queue when the listener closes), and a request sent after the signal on a kept-alive connection
 * gets its answer; the connection then ends with a FIN, never a reset — after an answer saying
 * `Connection: close`, or closed idle by the server once the listener has closed (until then answers
 * keep their connections: connections.ts). Which of the two depends on how soon the burst's accept
 * queue falls quiet, i.e. on the machine's load, so the test accepts either.
 *
 * Deterministic: the server is frozen (SIGSTOP) while the first connections complete their handshake
 * (the kernel queues them, nobody accepts them) and SIGTERM is sent; it resumes (SIGCONT) with the
 * signal, the queued connections and the second half of the burst arriving together. Connections
 * kept alive and idle since before the freeze send one more request 500 ms after the signal.
 */
import net from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startBuiltServer } from "../../support/server";

const BURST = 40;

interface Outcome {
  /** Handshake completed before SIGTERM was sent. */
  before: boolean;
  status: number | null;
  error: string | null;
}

/** One connection sending one request; resolves with its answer or the error that ended it. */
function oneRequest(port: number, path: string, signalled: () => boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { before: false, status: null, error: null };
    let received = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      outcome.before = !signalled();
      socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    });
    socket.setEncoding("latin1");
    socket.on("data", (part: string) => (received += part));
    socket.on("error", (error: NodeJS.ErrnoException) => (outcome.error = error.code ?? error.message));
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      outcome.status = status ? Number(status[1]) : null;
      if (!status && !outcome.error) outcome.error = "fechada sem resposta";
      resolve(outcome);
    });
    socket.setTimeout(15_000, () => socket.destroy(new Error("sem resposta em 15 s")));
  });
}

/**
 * A kept-alive connection: one answered request now; `again()` sends another and resolves with its
 * answer; `end` resolves with how the connection ended ("FIN" from the server, or the error).
 */
async function keptAlive(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  socket.setEncoding("latin1");
  let received = "";
  let ended: string | null = null;
  let endedBy: string | null = null;
  const end = new Promise<string>((resolve) => socket.once("close", () => resolve(endedBy ?? "fechada sem FIN nem erro")));
  socket.on("data", (part: string) => (received += part));
  socket.on("end", () => (endedBy ??= "FIN"));
  socket.on("error", (error: NodeJS.ErrnoException) => {
    ended = error.code ?? error.message;
    endedBy ??= ended;
  });
  socket.on("close", () => (ended ??= "fechada"));
  const request = `GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.write(request);
  await expect.poll(() => received.includes("\r\n\r\nok\n")).toBe(true);
  return {
    end,
    again(): Promise<{ answer: string; error: string | null }> {
      received = "";
      if (!ended) socket.write(request);
      return new Promise((resolve) => {
        const done = () => resolve({ answer: received, error: received.includes("\r\n\r\nok\n") ? null : (ended ?? "sem resposta") });
        if (ended) return done();
        socket.on("data", () => received.includes("\r\n\r\nok\n") && done());
        socket.on("close", done);
      });
    },
  };
}

describe("SIGTERM during a burst of new connections", () => {
  it("resets no connection accepted before the signal and answers kept-alive requests sent after it", { timeout: 30_000 }, async () => {
    const server = await startBuiltServer();
    try {
      const port = Number(new URL(server.url).port);
      const kept = await Promise.all(Array.from({ length: 4 }, () => keptAlive(port)));
      // Idle for over a second before the signal, as a balancer's spare pooled connections are.
      await delay(1_100);
      let signalled = false;
      process.kill(server.pid, "SIGSTOP");
      // Half the burst completes its handshake while the process cannot accept: the kernel holds it.
      const first = Array.from({ length: BURST / 2 }, () => oneRequest(port, "/auth", () => signalled));
      await delay(300);
      process.kill(server.pid, "SIGTERM");
      signalled = true;
      const signalledAt = Date.now();
      process.kill(server.pid, "SIGCONT");
      const second = Array.from({ length: BURST / 2 }, () => oneRequest(port, "/auth", () => signalled));
      // The kept-alive connections send once more 500 ms after the signal, as a balancer's pooled
      // connection would, whatever the burst is doing: within a second of the signal they are still
      // answered (with `Connection: close` once the listener has closed; a loaded machine may get there later).
      let keptSentAfterMs = 0;
      const keptAnswered = delay(500).then(() => {
        keptSentAfterMs = Date.now() - signalledAt;
        return Promise.all(kept.map((connection) => connection.again()));
      });
      const outcomes = await Promise.all([...first, ...second]);
      const before = outcomes.filter((outcome) => outcome.before);
      const after = outcomes.filter((outcome) => !outcome.before && outcome.status === null);
      const resetBefore = before.filter((outcome) => outcome.status !== 200);
      const keptAnswers = await keptAnswered;
      // Then the listener closes (after a tenth of a second without a new connection): a new one is refused.
      await expect
        .poll(async () => (await oneRequest(port, "/healthz", () => true)).error, { timeout: 5_000, interval: 250 })
        .toBe("ECONNREFUSED");
      console.log(
        `SIGTERM numa rajada de ${BURST} conexões: ${before.length} aceitas antes do sinal, ${resetBefore.length} sem resposta ` +
          `(${resetBefore.map((outcome) => outcome.error).join(", ")}); depois do sinal: ${outcomes.length - before.length - after.length} respondidas, ` +
          `${after.length} recusadas (${after.map((outcome) => outcome.error).join(", ")}); keep-alive depois do sinal: ` +
          `${keptAnswers.filter((answer) => answer.error === null).length} de ${kept.length} respondidas ` +
          `(enviadas ${keptSentAfterMs} ms depois do sinal; ${keptAnswers.map((answer) => answer.error ?? "ok").join(", ")}; ` +
          `${keptAnswers.filter((answer) => /\r\nconnection: close\r\n/i.test(answer.answer)).length} com Connection: close)`,
      );
      expect(before.length).toBeGreaterThanOrEqual(BURST / 2);
      expect(resetBefore).toEqual([]);
      // A connection that came after the signal is either answered or refused, never reset mid-request.
      expect(after.filter((outcome) => outcome.error !== "ECONNREFUSED")).toEqual([]);
      expect(keptAnswers.map((answer) => answer.error)).toEqual(kept.map(() => null));
      expect(await server.exited).toBe(0);
      // Answered, then ended by the server with a FIN (after `Connection: close`, or closed idle): never reset.
      expect(await Promise.all(kept.map((connection) => connection.end))).toEqual(kept.map(() => "FIN"));
    } finally {
      try {
        process.kill(server.pid, "SIGCONT");
      } catch {
        // Already ended.
      }
      await server.stop();
    }
  });
});
