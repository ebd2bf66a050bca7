/**
 * HTTP pipelining: several requests in one TCP write. Node parses them all at once, so without
 * care their handlers interleave on the one database connection.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteClient } from "../../../src/lib/server/data/db";
import { pipelined, requestText } from "../../support/raw-http";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;
let person: TestUser;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100000" });
  admin = await createTestUser(server.db, ["admin"], "admin-pipeline");
  person = await createTestUser(server.db, ["visualizador"], "pessoa-pipeline");
});
afterAll(() => server?.stop());

describe("pipelined requests", () => {
  it("are all served, in order, whatever each one does to the database", async () => {
    const host = new URL(server.url).host;
    const asAdmin = { cookie: `b1_session=${admin.token}`, origin: server.url, "content-type": "application/json" };
    const asPerson = { cookie: `b1_session=${person.token}`, origin: server.url, "content-type": "application/json" };
    const requests: string[] = [];
    const expected: { status: number; check: (body: string) => boolean }[] = [];
    for (let round = 1; round <= 4; round++) {
      // An admin edit is a transaction (user, roles and its audit row); the others read or write around it.
      const edit = JSON.stringify({ fullName: `Nome ${round}`, roles: ["visualizador"] });
      requests.push(requestText("PUT", `/api/admin/users/${person.id}`, host, asAdmin, edit));
      expected.push({ status: 200, check: (body) => body.includes("Usuário atualizado") });
      const trail = JSON.stringify({ completed: [], answers: {}, projectName: `projeto ${round}`, updatedAt: round });
      requests.push(requestText("PUT", "/api/trail", host, asPerson, trail));
      expected.push({ status: 200, check: (body) => body.includes('"ok":true') });
      requests.push(requestText("GET", "/api/trail", host, asPerson));
      expected.push({ status: 200, check: (body) => body.includes(`"projectName":"projeto ${round}"`) });
      requests.push(requestText("GET", "/faq", host, asPerson));
      expected.push({ status: 200, check: (body) => body.includes("<html") });
    }
    const answers = await pipelined(server.url, requests);
    expect(answers.map((answer) => answer.status)).toEqual(expected.map((entry) => entry.status));
    answers.forEach((answer, index) =>
      expect(expected[index]!.check(answer.body), `resposta ${index + 1}: ${answer.body.slice(0, 200)}`).toBe(true),
    );
    expect(server.output()).not.toMatch(/fora da transação/);
  });
});

describe("an endpoint's unexpected error", () => {
  it("answers 500 in JSON with the request id, which its log line carries", { timeout: 60_000 }, async () => {
    const own = await startBuiltServer();
    try {
      const someone = await createTestUser(own.db, ["visualizador"], "erro-interno");
      // A damaged schema: the trail's table is gone, so the endpoint's query fails (a fault of the portal, not an outage).
      const sqlite = sqliteClient(own.db);
      if (sqlite) sqlite.exec("drop table trail_progress");
      else await own.db.execute(sql`drop table trail_progress`);
      const response = await fetch(`${own.url}/api/trail`, { headers: { cookie: `b1_session=${someone.token}` } });
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const requestId = response.headers.get("x-request-id")!;
      const body = (await response.json()) as { error: string; requestId: string };
      expect(body).toEqual({ error: expect.stringMatching(/erro inesperado/i), requestId });
      expect(JSON.stringify(body)).not.toMatch(/trail_progress/);
      const errorLine = () =>
        own
          .output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { reqId?: string; level: number; msg: string; err?: { message: string } })
          .find((line) => line.reqId === requestId && line.level === 50);
      await expect.poll(() => errorLine()?.msg, { timeout: 5_000 }).toBe("erro não tratado");
      expect(errorLine()!.err!.message).toMatch(/trail_progress/);
    } finally {
      await own.stop();
    }
  });
});
