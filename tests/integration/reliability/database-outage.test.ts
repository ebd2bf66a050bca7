/**
 * PostgreSQL goes away under load (PostgreSQL pass only): its own throw-away cluster, since the
 * tests stop, freeze and restart it. The instance must never exit, must answer 503 with
 * Retry-After while the database is away (JSON on /api, the Portuguese page elsewhere), and must
 * serve again within a second of the database's return, having lost no acknowledged write.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCluster } from "../../../scripts/pg-cluster.mjs";
import { createLoadCast, runLoad, verifyLoad, type LoadCast, type LoadKind, type LoadResult } from "../../../scripts/bench/load";
import { createDatabase, freezePostgres, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";

const REQUEST_TIMEOUT_MS = 3_000;
const OUTAGE_MS = 5_000;

describe.skipIf(!onPostgres)("PostgreSQL goes away", () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  let databaseUrl: string;
  let server: RunningServer;
  let cast: LoadCast;
  /** What was wrong with any 5xx answer seen (status, headers, body). */
  const problems: string[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  // Each test gets its own server and database on the cluster, so one test's outcome cannot spill into the next.
  beforeEach(async () => {
    problems.length = 0;
    databaseUrl = await createDatabase(cluster.url);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-outage-"));
    fs.writeFileSync(path.join(dataDir, "database-url"), databaseUrl);
    server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100000", REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) }, { dataDir });
    cast = await createLoadCast(server.db, 3, 3);
  }, 60_000);
  afterEach(() => server?.stop());

  /** A 5xx must be a 503 with Retry-After: JSON `{ error }` on the API, the Portuguese page on pages. */
  function checkRefusal(label: string, response: Response, body: string) {
    if (response.status < 500) return;
    const wrong = (what: string) => problems.push(`${label}: ${response.status} ${what} ${body.slice(0, 120)}`);
    if (response.status !== 503) return wrong("em vez de 503");
    if (!/^\d+$/.test(response.headers.get("retry-after") ?? "")) wrong("sem Retry-After");
    const isApi = new URL(response.url).pathname.startsWith("/api/");
    const type = response.headers.get("content-type") ?? "";
    if (isApi && !(type.startsWith("application/json") && typeof (JSON.parse(body) as { error?: unknown }).error === "string"))
      wrong("sem JSON { error }");
    if (!isApi && !(type.startsWith("text/html") && body.includes("indisponível"))) wrong("sem a página em português");
  }
  const onResponse = (kind: LoadKind, response: Response, body: string) => checkRefusal(kind, response, body);

  async function get(urlPath: string, token = cast.people[0]!.token) {
    const response = await fetch(server.url + urlPath, {
      headers: { cookie: `b1_session=${token}` },
      redirect: "manual",
      signal: AbortSignal.timeout(20_000),
    });
    const body = await response.text();
    checkRefusal(`GET ${urlPath}`, response, body);
    return { status: response.status, body, headers: response.headers };
  }

  async function stillRunning(): Promise<string> {
    return Promise.race([server.exited.then((code) => `saiu (${code})`), delay(100).then(() => "no ar")]);
  }

  /** Milliseconds until a request that needs the database is served again. */
  async function timeUntilServed(): Promise<number> {
    const started = performance.now();
    while ((await get("/api/trail")).status !== 200) {
      if (performance.now() - started > 30_000) throw new Error("o portal não voltou em 30 s");
      await delay(10);
    }
    return Math.round(performance.now() - started);
  }

  function count500(result: LoadResult): number {
    return Object.values(result.stats).reduce((sum, stat) => sum + (stat.otherStatus["500"] ?? 0), 0);
  }

  it(
    "ending the server's connections mid-transaction and mid-load ends no process, answers 503 (never 500) and loses no acknowledged write",
    { timeout: 60_000 },
    async () => {
      const killer = new pg.Client({ connectionString: databaseUrl, application_name: "teste-queda" });
      await killer.connect();
      const controller = new AbortController();
      const load = runLoad({ baseUrl: server.url, cast, durationMs: 60_000, signal: controller.signal, onResponse });
      let terminated = 0;
      let heldForTransaction = 0;
      try {
        await delay(500);
        const until = Date.now() + 4_000;
        while (Date.now() < until) {
          const { rows } = await killer.query<{ held: boolean }>(
            `select pg_terminate_backend(pid), (state = 'idle in transaction' or (state = 'active' and xact_start < query_start)) as held
               from pg_stat_activity
              where datname = current_database() and application_name = 'b1-method-hub' and pid <> pg_backend_pid()`,
          );
          terminated += rows.length;
          heldForTransaction += rows.filter((row) => row.held).length;
          await delay(15);
        }
      } finally {
        await killer.end();
      }
      const recoveryMs = await timeUntilServed();
      console.log(`conexões encerradas: ${terminated} (${heldForTransaction} no meio de uma transação); de volta em ${recoveryMs} ms`);
      await delay(500);
      controller.abort();
      const result = await load;
      expect(await stillRunning()).toBe("no ar");
      expect(heldForTransaction).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      expect(count500(result)).toBe(0);
      expect(await verifyLoad(server.db, cast, result)).toEqual([]);
    },
  );

  it(
    "a hung PostgreSQL: a request waits no longer than REQUEST_TIMEOUT_MS and gets 503, /readyz says why (200), service resumes when it wakes",
    { timeout: 60_000 },
    async () => {
      expect((await get("/api/trail")).status).toBe(200);
      const postmaster = cluster.serverPid();
      freezePostgres(postmaster, true);
      try {
        const started = performance.now();
        const [api, page] = await Promise.all([get("/api/trail"), get("/faq")]);
        const waitedMs = Math.round(performance.now() - started);
        console.log(`PostgreSQL congelado: 503 depois de ${waitedMs} ms (REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS})`);
        expect([api.status, page.status]).toEqual([503, 503]);
        expect(waitedMs).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS + 500);
        // The shared database: said, but the instance stays in the balancer (it answers 503 itself).
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(200);
        expect((await ready.text()).trim()).toBe("pronto; banco de dados não responde");
      } finally {
        freezePostgres(postmaster, false);
      }
      const recoveryMs = await timeUntilServed();
      console.log(`PostgreSQL descongelado: de volta em ${recoveryMs} ms`);
      expect(recoveryMs).toBeLessThan(1_000);
      expect(await stillRunning()).toBe("no ar");
      expect(problems).toEqual([]);
    },
  );

  it(
    "PostgreSQL stopped under load: 503 with Retry-After while away, /readyz 200 saying so, served again within a second of its return, no acknowledged write lost",
    { timeout: 90_000 },
    async () => {
      const controller = new AbortController();
      const load = runLoad({ baseUrl: server.url, cast, durationMs: 60_000, signal: controller.signal, onResponse });
      await delay(1_000);
      await cluster.halt();
      const away = performance.now();
      const api = await get("/api/trail");
      const page = await get("/faq");
      expect([api.status, page.status]).toEqual([503, 503]);
      expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
      await expect
        .poll(async () => (await (await fetch(`${server.url}/readyz`)).text()).trim(), { timeout: 3_000, interval: 100 })
        .toBe("pronto; banco de dados não responde");
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      await delay(OUTAGE_MS - (performance.now() - away));
      await cluster.resume();
      const recoveryMs = await timeUntilServed();
      console.log(`PostgreSQL parado por ${OUTAGE_MS} ms sob carga: de volta ${recoveryMs} ms depois de aceitar conexões`);
      expect(recoveryMs).toBeLessThan(1_000);
      await expect
        .poll(async () => (await (await fetch(`${server.url}/readyz`)).text()).trim(), { timeout: 3_000, interval: 100 })
        .toBe("pronto");
      await delay(1_000);
      controller.abort();
      const result = await load;
      expect(await stillRunning()).toBe("no ar");
      expect(problems).toEqual([]);
      expect(count500(result)).toBe(0);
      expect(await verifyLoad(server.db, cast, result)).toEqual([]);
    },
  );
});
