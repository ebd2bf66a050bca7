import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAuditRows, insertScaleUsers } from "../../../scripts/bench/scale-data";
import { onPostgres } from "../../support/pg";
import { threadNiceness } from "../../support/proc";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { count } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { AUDIT_CSV_HEADER, CSV_BOM, auditCsvLine } from "../../../src/lib/server/audit/export-csv";
import { queryAuditLogs } from "../../../src/lib/server/audit/query";

const ROWS = 40_000;
let server: RunningServer;
let admin: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
  viewer = await createTestUser(server.db, ["visualizador"]);
  const people = await insertScaleUsers(server.db, 50);
  await insertAuditRows(server.db, ROWS, people);
}, 120_000);
afterAll(() => server?.stop());

const get = (path: string, user: TestUser) => fetch(server.url + path, { headers: { cookie: `b1_session=${user.token}` } });

describe("audit export on a large table", () => {
  it("streams every matching row, and pages are answered while it is still running", { timeout: 60_000 }, async () => {
    const exportResponse = await get("/api/audit-logs/export.csv", admin);
    expect(exportResponse.status).toBe(200);
    const reader = exportResponse.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    let exportEnded = false;

    // The export is held open (its reader paused) while other people use the portal.
    const page = await get("/faq", viewer);
    const auditPage = await get("/api/audit-logs?user=pessoa-7@", admin);
    expect(exportEnded).toBe(false);
    expect(page.status).toBe(200);
    expect(auditPage.status).toBe(200);
    expect(((await auditPage.json()) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);

    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    exportEnded = true;
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    // Header + every audit row (the seeded ones and those the test users' creation wrote).
    const [total] = (await server.db.select({ n: count() }).from(auditLogs)) as [{ n: number }];
    expect(total.n).toBeGreaterThanOrEqual(ROWS);
    expect(lines.length).toBe(total.n + 1);
  });

  // SQLite exports run on a worker thread; PostgreSQL's wait on the pool, with no thread of their own.
  it.runIf(fs.existsSync("/proc/self/task") && !onPostgres)(
    "the export runs at the lowest CPU priority, the server's main thread does not",
    async () => {
      const niceness = () => threadNiceness(server.pid);
      const threadsBefore = niceness();
      const before = new Set(threadsBefore.map((thread) => thread.tid));
      const serverNice = threadsBefore.find((thread) => thread.tid === server.pid)!.nice;
      // On a connection of its own (no keep-alive pool): abandoning it mid-stream resets only it,
      // never a pooled socket the next test's fetch would pick up.
      const exportRequest = http.get(`${server.url}/api/audit-logs/export.csv`, {
        headers: { cookie: `b1_session=${admin.token}` },
        agent: false,
      });
      const exportResponse = await new Promise<http.IncomingMessage>((resolve, reject) =>
        exportRequest.once("response", resolve).once("error", reject),
      );
      await new Promise((resolve) => exportResponse.once("data", resolve));
      const during = niceness();
      exportRequest.on("error", () => undefined);
      exportRequest.destroy();
      // Among the threads the export started (its worker and the worker's helpers), the worker is at 19.
      expect(during.filter((thread) => !before.has(thread.tid)).map((thread) => thread.nice)).toContain(19);
      expect(during.find((thread) => thread.tid === server.pid)!.nice).toBe(serverNice);
    },
  );

  it("a user filter and a date range still page in time order", async () => {
    const response = await get("/api/audit-logs?user=Pessoa%2012&limit=20", admin);
    const body = (await response.json()) as { rows: { createdAt: number; id: number; userEmail: string }[]; nextCursor: string };
    expect(body.rows.length).toBe(20);
    expect(body.rows.every((row) => row.userEmail.startsWith("pessoa-12"))).toBe(true);
    const times = body.rows.map((row) => row.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const none = (await (await get("/api/audit-logs?user=ninguem-com-esse-nome", admin)).json()) as { rows: unknown[] };
    expect(none.rows).toEqual([]);
  });

  // Chunks are encoded into a few reused slots of memory; a slot is written again only once the
  // socket has sent the chunk it held. A client that reads slowly keeps writes pending: a slot
  // reused too early would put newer rows over older ones still waiting to be sent.
  it("a client reading slowly gets every row exactly as the database holds it, byte for byte", { timeout: 60_000 }, async () => {
    const received: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${server.url}/api/audit-logs/export.csv`, {
        headers: { cookie: `b1_session=${admin.token}` },
        agent: false,
      });
      request.on("error", reject);
      request.on("response", (response) => {
        expect(response.statusCode).toBe(200);
        let sincePause = 0;
        response.on("data", (chunk: Buffer) => {
          received.push(chunk);
          sincePause += chunk.length;
          if (sincePause < 256 * 1024) return;
          sincePause = 0;
          response.pause();
          setTimeout(() => response.resume(), 15);
        });
        response.on("end", resolve);
        response.on("error", reject);
      });
    });
    let expected = CSV_BOM + AUDIT_CSV_HEADER;
    let cursor: string | undefined;
    do {
      const page = await queryAuditLogs(server.db, { cursor, limit: 1000 }, "America/Sao_Paulo");
      for (const row of page.rows) expected += auditCsvLine(row, "America/Sao_Paulo");
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const text = Buffer.concat(received).toString("utf8");
    expect(text.length).toBe(expected.length);
    expect(text === expected).toBe(true);
  });
});
