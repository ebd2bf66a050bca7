/**
 * SIGTERM while keep-alive clients are busy: every request they send on their open connections is
 * answered (the last one with `Connection: close`); none is reset or left unanswered.
 */
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { keepAliveLoop, requestText } from "../../support/raw-http";
import { startBuiltServer } from "../../support/server";
import { createTestUser } from "../../support/users";

const CLIENTS = 24;

describe("shutdown drain", () => {
  it("answers keep-alive clients sending during SIGTERM, resets none, and exits 0", { timeout: 60_000 }, async () => {
    const server = await startBuiltServer({ SHUTDOWN_DRAIN_MS: "500" });
    try {
      const person = await createTestUser(server.db, ["visualizador"], "encerramento");
      const host = new URL(server.url).host;
      // Half read the database (the trail), half a page from memory.
      const requests = [
        requestText("GET", "/api/trail", host, { cookie: `b1_session=${person.token}` }),
        requestText("GET", "/faq", host, { cookie: `b1_session=${person.token}` }),
      ];
      const runs = Array.from({ length: CLIENTS }, (_, index) => keepAliveLoop(server.url, requests[index % 2]!, () => false));
      await delay(400);
      process.kill(server.pid, "SIGTERM");
      const results = await Promise.all(runs);
      const failures = results.flatMap((run) => run.failures);
      const answered = results.reduce((sum, run) => sum + run.answers, 0);
      console.log(`${CLIENTS} clientes keep-alive: ${answered} respostas, ${failures.length} sem resposta (${failures.join(", ")})`);
      expect(failures).toEqual([]);
      // Every client was still sending when the signal came, and its connection ended with an answer that said so.
      expect(results.map((run) => run.closeAnswers)).toEqual(results.map(() => 1));
      expect(await server.exited).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
