/**
 * Two gate instances on one PostgreSQL behind HAProxy with the recommended configuration
 * (deploy/haproxy.cfg, started here): round-robin with no stickiness, /readyz health checks.
 * PostgreSQL pass only (on SQLite the portal is one process by design), and only where HAProxy is
 * installed. The heavy version (three instances, 60 s, one killed) is `npm run bench -- --lb`.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findHaproxy, HAPROXY_CONFIG, haproxyConfig, startLbCluster, type LbCluster } from "../../../scripts/bench/cluster";
import { failedRequests, lbLoad, roleChangeEverywhere, sessionEndedEverywhere } from "../../../scripts/bench/lb";
import { closeDatabase, openDatabase, type Db } from "../../../src/lib/server/data/db";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { createTestUser } from "../../support/users";
import { eq } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";

describe("the recommended HAProxy configuration", () => {
  it("is used as documented: only the bind address and the server lines change", () => {
    const template = fs.readFileSync(HAPROXY_CONFIG, "utf8");
    const generated = haproxyConfig(
      template,
      "127.0.0.1:9",
      [
        { name: "gate1", address: "127.0.0.1:10" },
        { name: "gate2", address: "127.0.0.1:11" },
      ],
      "/tmp/b1-503.http",
      "/tmp/b1-admin.sock",
    );
    const kept = (text: string) => text.split("\n").filter((line) => !/^\s+(bind|server|errorfile 503|stats socket)\s/.test(line));
    expect(kept(generated)).toEqual(kept(template));
    expect(generated).toContain("bind 127.0.0.1:9");
    // HAProxy's own 503 (no instance can answer) is the portal's Portuguese page with Retry-After.
    expect(template).toMatch(/^\s+errorfile 503 \/etc\/haproxy\/errors\/b1-503\.http$/m);
    expect(generated).toMatch(/^\s+errorfile 503 \/tmp\/b1-503\.http$/m);
    expect(generated.match(/^\s+server .* check$/gm)).toEqual([
      "    server gate1 127.0.0.1:10 check",
      "    server gate2 127.0.0.1:11 check",
    ]);
    expect(template).toMatch(/balance roundrobin/);
    expect(template).toMatch(/option httpchk GET \/readyz/);
    // No stickiness: no cookie insertion nor stick table among the directives.
    const directives = template.split("\n").filter((line) => !/^\s*#/.test(line));
    expect(directives.filter((line) => /\bcookie\b|\bstick/.test(line))).toEqual([]);
  });
});

describe.skipIf(!onPostgres || !findHaproxy())("two instances behind HAProxy", () => {
  let cluster: LbCluster;
  let db: Db;

  beforeAll(async () => {
    const url = (await freshDatabaseUrl())!;
    db = await openDatabase(url, { migrate: true });
    cluster = await startLbCluster({ databaseUrl: url, instances: 2 });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    if (db) await closeDatabase(db);
  });

  it("a session ended on one instance is refused by the other at its next request", async () => {
    const { before, after } = await sessionEndedEverywhere(cluster, db);
    expect(before).toEqual(["200", "200"]);
    expect(after).toEqual([expect.stringMatching(/^302 \/auth/)]);
  });

  it("an X-Forwarded-For the client writes does not pass the balancer: the audit row has the address HAProxy saw", async () => {
    // Found by the attacker's pass: with option forwardfor keeping the client's header, the instances took its
    // first entry, so a client chose the address its guesses were counted and audited under.
    const user = await createTestUser(db, ["visualizador"], "atras-do-balanceador");
    for (const spoofed of ["203.0.113.50", "203.0.113.51, 198.51.100.9"]) {
      const response = await fetch(`${cluster.url}/api/auth/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: cluster.url, "x-forwarded-for": spoofed },
        body: JSON.stringify({ email: user.email, password: "Errada@123x" }),
      });
      expect(response.status).toBe(401);
    }
    const rows = await db.select({ ip: auditLogs.ipAddress }).from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(rows.map((row) => row.ip)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("a role removed on one instance is gone on the other at once", async () => {
    const { before, after } = await roleChangeEverywhere(cluster, db);
    expect(before).toEqual(["200", "200"]);
    expect(after).toEqual(["302 /acesso-negado?pagina=%2Fcomite-ia"]);
  });

  it("10 s of mixed load through the balancer: no failed request, every acknowledged write stored", { timeout: 60_000 }, async () => {
    const figures = await lbLoad(cluster, db, { seconds: 10, people: 4, targets: 2 });
    console.table(figures.summary);
    expect(figures.failures).toEqual([]);
    expect(failedRequests(figures)).toBe(0);
    expect(figures.problems).toEqual([]);
  });
});
