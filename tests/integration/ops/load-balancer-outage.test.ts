/**
 * The shared PostgreSQL goes away under load behind HAProxy (deploy/haproxy.cfg): a database blip
 * must not empty the balancer. Every instance is equally affected, so none is taken out: each
 * answers 503 with Retry-After and the Portuguese page (JSON on the API) while the database is away,
 * and the balancer serves again within a second of its return. When no instance answers at all,
 * HAProxy's own 503 is the portal's Portuguese page with Retry-After (`errorfile 503`).
 * PostgreSQL pass only, where HAProxy is installed; its own throw-away cluster (the test stops it).
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findHaproxy, startLbCluster, type LbCluster } from "../../../scripts/bench/cluster";
import { createLoadCast, runLoad, verifyLoad, type LoadCast, type LoadResult } from "../../../scripts/bench/load";
import { startCluster } from "../../../scripts/pg-cluster.mjs";
import { closeDatabase, openDatabase, type Db } from "../../../src/lib/server/data/db";
import { createDatabase, onPostgres } from "../../support/pg";

const OUTAGE_MS = 3_000;

/** What is wrong with a 5xx answer (null when it is the portal's 503: Retry-After, JSON on /api, the Portuguese page elsewhere). */
function refusalProblem(response: Response, body: string): string | null {
  if (response.status < 500) return null;
  if (response.status !== 503) return `${response.status} em vez de 503`;
  if (!/^\d+$/.test(response.headers.get("retry-after") ?? "")) return `503 sem Retry-After: ${body.slice(0, 80)}`;
  const type = response.headers.get("content-type") ?? "";
  if (new URL(response.url).pathname.startsWith("/api/")) {
    if (!type.startsWith("application/json") && !(type.startsWith("text/html") && body.includes("indisponível")))
      return "503 da API sem JSON";
    return null;
  }
  return type.startsWith("text/html") && body.includes("indisponível") ? null : `503 sem a página em português: ${body.slice(0, 80)}`;
}

describe.skipIf(!onPostgres || !findHaproxy())("the shared PostgreSQL away behind HAProxy", () => {
  let postgres: Awaited<ReturnType<typeof startCluster>>;
  let lb: LbCluster;
  let db: Db;
  let cast: LoadCast;

  beforeAll(async () => {
    postgres = await startCluster();
    const url = await createDatabase(postgres.url);
    db = await openDatabase(url, { migrate: true });
    lb = await startLbCluster({ databaseUrl: url, instances: 2, env: { REQUEST_TIMEOUT_MS: "3000" } });
    cast = await createLoadCast(db, 3, 2);
  }, 90_000);
  afterAll(async () => {
    await lb?.stop();
    if (db) await closeDatabase(db);
    await postgres?.stop();
  });

  /** Milliseconds until a request that needs the database is served through the balancer. */
  async function timeUntilServed(): Promise<number> {
    const started = performance.now();
    for (;;) {
      const response = await fetch(`${lb.url}/api/trail`, { headers: { cookie: `b1_session=${cast.people[0]!.token}` } }).catch(() => null);
      await response?.arrayBuffer();
      if (response?.status === 200) return Math.round(performance.now() - started);
      if (performance.now() - started > 30_000) throw new Error("o balanceador não voltou em 30 s");
      await delay(10);
    }
  }

  it(
    "a database outage under load keeps every instance in: only the portal's 503 with Retry-After, served again within a second",
    { timeout: 90_000 },
    async () => {
      const problems = new Map<string, number>();
      const controller = new AbortController();
      const load = runLoad({
        baseUrl: lb.url,
        cast,
        durationMs: 60_000,
        signal: controller.signal,
        onResponse: (_kind, response, body) => {
          const problem = refusalProblem(response, body);
          if (problem) problems.set(problem.slice(0, 40), (problems.get(problem.slice(0, 40)) ?? 0) + 1);
        },
      });
      await delay(1_000);
      await postgres.halt();
      await delay(OUTAGE_MS);
      // Every instance still in the balancer: the readiness of a shared database takes none out.
      const states = await Promise.all(lb.gates.map(async (gate) => (await fetch(`${gate.url}/readyz`)).status));
      await postgres.resume();
      const recoveryMs = await timeUntilServed();
      await delay(1_000);
      controller.abort();
      const result: LoadResult = await load;
      const failed = Object.values(result.stats).reduce(
        (sum, stat) =>
          sum +
          stat.networkErrors +
          Object.entries(stat.otherStatus).reduce((n, [code, count]) => n + (Number(code) >= 500 ? count : 0), 0),
        0,
      );
      console.log(
        `balanceador, PostgreSQL parado ${OUTAGE_MS} ms sob carga: ${failed} pedidos recusados (503 do portal), de volta ${recoveryMs} ms depois de aceitar conexões; problemas: ${JSON.stringify(Object.fromEntries(problems))}`,
      );
      expect(states).toEqual([200, 200]);
      expect(Object.fromEntries(problems)).toEqual({});
      expect(recoveryMs).toBeLessThan(1_000);
      expect(await verifyLoad(db, cast, result)).toEqual([]);
    },
  );

  it("with no instance answering, HAProxy's own 503 is the portal's Portuguese page with Retry-After", { timeout: 30_000 }, async () => {
    for (const gate of lb.gates) await lb.kill(gate);
    for (const urlPath of ["/faq", "/api/trail"]) {
      const response = await fetch(lb.url + urlPath);
      const body = await response.text();
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(body).toContain('<html lang="pt-BR"');
      expect(body).toContain("Serviço temporariamente indisponível");
      expect(body).not.toMatch(/No server is available/i);
    }
  });
});
