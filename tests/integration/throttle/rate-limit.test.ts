import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs, rateLimits } from "../../../db/schema/index";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, connectDatabase } from "../../../src/lib/server/data/db";
import { countAttempt } from "../../../src/lib/server/throttle/rate-limit";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { openOwnTestDatabase } from "../../support/users";

describe("countAttempt", () => {
  it("allows max attempts per window, measured in milliseconds, then recovers; every connection shares the count", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-rate-"));
    const { target, db } = await openOwnTestDatabase(path.join(dir, "db.sqlite"));
    // A second connection to the same database: another instance behind the load balancer.
    const other = connectDatabase(target);
    try {
      const limit = { max: 2, windowMs: 1000 };
      expect(await countAttempt(db, "k", limit, 0)).toEqual({ count: 1, over: false });
      expect(await countAttempt(other, "k", limit, 10)).toEqual({ count: 2, over: false });
      expect(await countAttempt(db, "k", limit, 999)).toEqual({ count: 3, over: true });
      expect(await countAttempt(other, "k", limit, 999)).toEqual({ count: 4, over: true });
      expect(await countAttempt(other, "k", limit, 1000)).toEqual({ count: 1, over: false });
    } finally {
      await closeDatabase(other);
      await closeDatabase(db);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sign-in limit over HTTP", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // A window far longer than the test: ten attempts (each a password check) may take seconds on a loaded machine.
    server = await startBuiltServer({ RATE_LIMIT_WINDOW_MS: "600000" });
  });
  afterAll(() => server?.stop());

  const attempt = () =>
    fetch(server.url + "/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: "alvo@b1.example.com", password: "Errada@123" }),
    });

  it("trips after the per-(e-mail, IP) failure limit, says so in Portuguese, audits it as blocked, and recovers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses[8]).toBe(429);
    const blocked = await attempt();
    expect(await blocked.json()).toEqual({ error: "Muitas tentativas. Aguarde alguns minutos e tente novamente.", code: "rate_limited" });
    const rows = await server.db.select().from(auditLogs).where(eq(auditLogs.result, "blocked"));
    expect(rows.some((row) => row.actionType === "user_login_attempt")).toBe(true);
    // The window ends (its reset time passes, as the clock would move it): the next attempt counts from 1 again.
    await server.db.update(rateLimits).set({ resetAt: Date.now() - 1 });
    expect((await attempt()).status).toBe(401);
  });
});
