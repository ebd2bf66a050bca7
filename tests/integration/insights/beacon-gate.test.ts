/**
 * The search beacon is answered by the gate itself (src/server/search-beacon.ts), never by Astro's
 * request pipeline, which cost more than the beacon (~1.1 ms of CPU each, pages' p99 ×30 under 200
 * beacons/s: npm run bench -- --insights). Here the adapter behind the gate fails every request, so
 * only the gate can answer; and the gate's checks still hold: session, origin, method, the rate per
 * person (whatever number of sessions) when 50 arrive at once. Both engines.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insightsSearches } from "../../../db/schema/index";
import { readConfig } from "../../../src/lib/server/config/config";
import { loadAssets, loadPages } from "../../../src/lib/server/content/static-files";
import { closeDatabase, pgPool, type Db } from "../../../src/lib/server/data/db";
import { BEACONS_PER_MINUTE, createInsightsCollector, type InsightsCollector } from "../../../src/lib/server/insights/collector";
import { createSession, invalidateUserSessions } from "../../../src/lib/server/sessions/session";
import { createGate } from "../../../src/server/gate";
import { createObservedListener } from "../../../src/server/observability/listener";
import { storedQuery } from "../../support/insights";
import { captureLogs } from "../../support/log-capture";
import { onPostgres } from "../../support/pg";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

describe("search beacon in the gate", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-beacon-gate-"));
  const logs = captureLogs();
  let db: Db;
  let server: http.Server;
  let url: string;
  let insights: InsightsCollector;
  let adapterCalls = 0;

  beforeAll(async () => {
    db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
    insights = createInsightsCollector({ db, enabled: true, timeZone: "America/Sao_Paulo", versions: new Map(), intervalMs: 3_600_000 });
    // A body idle for 1 s is cut (10 s by default): the slow-body test below waits that long.
    const config = readConfig({
      DATABASE_PATH: path.join(dir, "db.sqlite"),
      PUBLIC_URL: "http://127.0.0.1:4321",
      BODY_IDLE_TIMEOUT_MS: "1000",
    });
    const gate = createGate({
      db,
      config,
      assets: loadAssets("dist/client"),
      pages: loadPages("dist/pages"),
      logger: logs.logger,
      insights,
      appHandler: async () => {
        adapterCalls += 1;
        throw new Error("o adaptador não deveria responder beacons");
      },
    });
    server = http.createServer(
      createObservedListener({ gate, respondToHealthProbe: async () => {}, logger: logs.logger, trustProxy: false }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await insights.stop();
    server.close();
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const beacon = (cookie: string | null, body: unknown, headers: Record<string, string> = { origin: "http://127.0.0.1:4321" }) =>
    fetch(`${url}/api/busca`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}), ...headers },
      body: JSON.stringify(body),
    });

  it("answers 204 without the adapter and counts the search; refuses what the gate refuses elsewhere", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const cookie = `b1_session=${user.token}`;
    const ok = await beacon(cookie, { consulta: "  Canvas  ", resultados: 2, aberto: 1 });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    expect((await beacon(null, { consulta: "canvas", resultados: 1, aberto: null })).status).toBe(401);
    expect(
      (await beacon(cookie, { consulta: "canvas", resultados: 1, aberto: null }, { origin: "https://outro.example.com" })).status,
    ).toBe(403);
    const get = await fetch(`${url}/api/busca`, { headers: { cookie } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const bad = await beacon(cookie, { consulta: "canvas", resultados: 1, aberto: 5 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Posição inválida." });
    const polluted = await fetch(`${url}/api/busca`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: "http://127.0.0.1:4321" },
      body: '{"consulta":"canvas","resultados":1,"aberto":null,"__proto__":{"x":1}}',
    });
    expect(polluted.status).toBe(400);
    // A lone surrogate (as a JSON escape): never stored — PostgreSQL refuses it inside the flush's JSON rows, which would fail every flush after it.
    const surrogate = await fetch(`${url}/api/busca`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: "http://127.0.0.1:4321" },
      body: '{"consulta":"can\\ud800vas","resultados":1,"aberto":null}',
    });
    expect(surrogate.status).toBe(400);
    expect(await surrogate.json()).toEqual({ error: "A busca não pode conter caracteres de controle ou invisíveis." });
    expect(adapterCalls).toBe(0);

    await insights.flush();
    const rows = await db.select().from(insightsSearches);
    expect(rows.map(({ query, searches, empty, opens }) => ({ query, searches, empty, opens }))).toEqual([
      { query: await storedQuery(db, "canvas"), searches: 1, empty: 0, opens: 1 },
    ]);
  });

  it("50 beacons of one session at once: exactly the per-minute allowance counted, the rest 429", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const cookie = `b1_session=${user.token}`;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        beacon(cookie, { consulta: "rajada", resultados: 0, aberto: null }).then((response) => response.status),
      ),
    );
    expect(answers.filter((status) => status === 204)).toHaveLength(BEACONS_PER_MINUTE);
    expect(answers.filter((status) => status === 429)).toHaveLength(50 - BEACONS_PER_MINUTE);
    await insights.flush();
    const rajada = await storedQuery(db, "rajada");
    const [row] = (await db.select().from(insightsSearches)).filter((candidate) => candidate.query === rajada);
    expect(row).toMatchObject({ searches: BEACONS_PER_MINUTE, empty: BEACONS_PER_MINUTE, opens: 0 });
    expect(adapterCalls).toBe(0);
  });

  it("one person's 10 sessions share one allowance: 50 beacons spread over them, exactly the per-minute allowance counted (issue 62)", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const tokens = [user.token];
    for (let index = 1; index < 10; index++) tokens.push((await createSession(db, user.id)).token);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        beacon(`b1_session=${tokens[index % tokens.length]}`, { consulta: "muitas sessoes", resultados: 1, aberto: null }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(answers.filter((status) => status === 204)).toHaveLength(BEACONS_PER_MINUTE);
    expect(answers.filter((status) => status === 429)).toHaveLength(50 - BEACONS_PER_MINUTE);
    // Another person is not held back by the first one's bursts.
    const other = await createTestUser(db, ["visualizador"]);
    expect((await beacon(`b1_session=${other.token}`, { consulta: "muitas sessoes", resultados: 1, aberto: null })).status).toBe(204);
  });

  it("a beacon from a session ended a moment earlier is refused (401), though it may share the change counter's read with one sent just before", async () => {
    const [kept, ended] = await Promise.all([createTestUser(db, ["visualizador"]), createTestUser(db, ["visualizador"])]);
    const endedCookie = `b1_session=${ended.token}`;
    expect((await beacon(endedCookie, { consulta: "antes", resultados: 1, aberto: null })).status).toBe(204);
    const earlier = beacon(`b1_session=${kept.token}`, { consulta: "antes", resultados: 1, aberto: null });
    await invalidateUserSessions(db, ended.id);
    const refused = await beacon(endedCookie, { consulta: "depois", resultados: 1, aberto: null });
    expect(refused.status).toBe(401);
    expect((await earlier).status).toBe(204);
    await insights.flush();
    expect((await db.select().from(insightsSearches)).map((row) => row.query)).not.toContain(await storedQuery(db, "depois"));
  });

  it.skipIf(!onPostgres)(
    "10 beacons at once share one read of the change counter on PostgreSQL (a round trip each before), and each is counted",
    async () => {
      const people = await Promise.all(Array.from({ length: 10 }, () => createTestUser(db, ["visualizador"])));
      const pool = pgPool(db)!;
      const query = vi.spyOn(pool, "query");
      try {
        const answers = await Promise.all(
          people.map((person) =>
            beacon(`b1_session=${person.token}`, { consulta: "juntos", resultados: 1, aberto: null }).then((r) => r.status),
          ),
        );
        expect(answers).toEqual(Array.from({ length: 10 }, () => 204));
        const counterReads = query.mock.calls.filter((call) => JSON.stringify(call[0]).includes("cache_version"));
        // All ten normally arrive within the 20 ms the first one waits; a slow machine may spread them over two or three reads.
        expect(counterReads.length).toBeGreaterThanOrEqual(1);
        expect(counterReads.length).toBeLessThanOrEqual(3);
      } finally {
        query.mockRestore();
      }
      await insights.flush();
      const juntos = await storedQuery(db, "juntos");
      expect((await db.select().from(insightsSearches)).find((row) => row.query === juntos)).toMatchObject({ searches: 10 });
    },
  );

  /** One beacon whose body is sent in chunks without a Content-Length; `cut` breaks the connection after the chunks. */
  function chunkedBeacon(cookie: string, chunks: (string | Buffer)[], cut = false): Promise<{ status: number; body: string } | null> {
    return new Promise((resolve) => {
      const request = http.request(`${url}/api/busca`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, origin: "http://127.0.0.1:4321", "transfer-encoding": "chunked" },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode!, body }));
      });
      request.on("error", () => resolve(null));
      for (const chunk of chunks) request.write(chunk);
      if (cut) setTimeout(() => (request.destroy(), resolve(null)), 100);
      else request.end();
    });
  }

  it("a body past 64 KiB without a declared length is cut at the limit (413, nothing counted); one in chunks is read whole; a broken one counts nothing", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const cookie = `b1_session=${user.token}`;
    const padding = " ".repeat(16 * 1024);
    const over = await chunkedBeacon(cookie, [
      '{"consulta":"excesso","resultados":1,',
      padding,
      padding,
      padding,
      padding,
      '"aberto":null}',
    ]);
    expect(over?.status).toBe(413);
    expect(over?.body).toContain("grande");
    const whole = await chunkedBeacon(cookie, ['{"consulta":"em pe', 'daços","resultados":1,', padding, '"aberto":null}']);
    expect(whole).toEqual({ status: 204, body: "" });
    expect(await chunkedBeacon(cookie, ['{"consulta":"quebrada",'], true)).toBeNull();
    await insights.flush();
    const queries = (await db.select().from(insightsSearches)).map((row) => row.query);
    expect(queries).toContain(await storedQuery(db, "em pedaços"));
    expect(queries).not.toContain(await storedQuery(db, "excesso"));
    expect(queries).not.toContain(await storedQuery(db, "quebrada"));
    expect(adapterCalls).toBe(0);
  });

  it("a character split between two chunks is read whole; a body that stops sending gets 408, counts nothing, and the session's next beacon is counted", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const cookie = `b1_session=${user.token}`;
    const text = Buffer.from('{"consulta":"avaliação","resultados":2,"aberto":1}');
    const split = text.indexOf(Buffer.from("ç")) + 1; // between the two bytes of "ç"
    expect(await chunkedBeacon(cookie, [text.subarray(0, split), text.subarray(split)])).toEqual({ status: 204, body: "" });
    const started = Date.now();
    const stalled = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(url).port), "127.0.0.1", () => {
        socket.write(
          `POST /api/busca HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:4321\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"consulta":"parada",`,
        );
      });
      let reply = "";
      socket.on("data", (chunk: Buffer) => (reply += chunk.toString()));
      socket.on("error", () => {});
      socket.on("close", () => resolve(reply));
      setTimeout(() => socket.destroy(), 10_000).unref();
    });
    expect(stalled).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await beacon(cookie, { consulta: "depois da parada", resultados: 1, aberto: null })).status).toBe(204);
    await insights.flush();
    const queries = (await db.select().from(insightsSearches)).map((row) => row.query);
    expect(queries).toContain(await storedQuery(db, "avaliação"));
    expect(queries).toContain(await storedQuery(db, "depois da parada"));
    expect(queries).not.toContain(await storedQuery(db, "parada"));
    expect(adapterCalls).toBe(0);
  });
});
