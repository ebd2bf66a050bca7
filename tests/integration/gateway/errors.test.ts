import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";
import { loadAssets, loadPages, PageTemplate } from "../../../src/lib/server/content/static-files";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createGate } from "../../../src/server/gate";
import { createObservedListener } from "../../../src/server/observability/listener";
import type { Logger } from "pino";
import { captureLogs } from "../../support/log-capture";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

/** A gate on `db` behind the request-id listener, on a loopback port; `pages` may be doctored by the test. */
async function startGate(db: Db, dir: string, logger: Logger, pages = loadPages("dist/pages")) {
  const gate = createGate({
    db,
    config: readConfig({ DATABASE_PATH: path.join(dir, "db.sqlite") }),
    assets: loadAssets("dist/client"),
    pages,
    logger,
    appHandler: async () => {
      throw new Error("falha interna com detalhe secreto");
    },
  });
  const listener = createObservedListener({ gate, respondToHealthProbe: async () => {}, logger, trustProxy: false });
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("uncaught errors", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-err-"));
  let db: Db;
  const logs = captureLogs();
  let server: http.Server;
  let url: string;
  const pages = loadPages("dist/pages");

  beforeAll(async () => {
    db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
    // A page whose rendering fails: the gate's own error on a page.
    const broken = new PageTemplate("<!doctype html><p>Perguntas frequentes</p>");
    broken.body = () => {
      throw new Error("falha ao montar a página com detalhe secreto");
    };
    pages.set("/faq", broken);
    ({ server, url } = await startGate(db, dir, logs.logger, pages));
  });

  afterAll(async () => {
    server.close();
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers an API error in JSON with the request id and without the stack; logs the error once, with the stack", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const response = await fetch(`${url}/api/trail`, { headers: { cookie: `b1_session=${user.token}` } });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: expect.stringMatching(/erro inesperado/i), requestId });
    expect(text).not.toContain("detalhe secreto");

    const ofRequest = logs.records().filter((record) => record.reqId === requestId);
    const errors = ofRequest.filter((record) => record.level === 50);
    expect(errors).toHaveLength(1);
    expect((errors[0]!.err as { stack: string }).stack).toMatch(/falha interna com detalhe secreto\n\s+at /);
    expect(ofRequest.find((record) => record.msg === "requisição")).toMatchObject({ status: 500, path: "/api/trail", userId: user.id });
    expect(logs.lines.join("\n")).not.toContain(user.token);
  });

  it("shows a page's error as the 500 page with the request id and without the stack", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const response = await fetch(`${url}/faq`, { headers: { cookie: `b1_session=${user.token}` } });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    const html = await response.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain(`informe este código ao suporte: <code class="font-mono select-all" data-request-id>${requestId}</code>`);
    expect(html).not.toContain("detalhe secreto");
    expect(logs.records().filter((record) => record.reqId === requestId && record.level === 50)).toHaveLength(1);
  });
});

describe("a database that is away", () => {
  it("answers 503 with Retry-After: the Portuguese page on pages, JSON on the API; a warning in the log", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-away-"));
    const logs = captureLogs();
    const db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
    const user = await createTestUser(db, ["visualizador"]);
    const { server, url } = await startGate(db, dir, logs.logger);
    try {
      await closeDatabase(db);
      const page = await fetch(`${url}/faq`, { headers: { cookie: `b1_session=${user.token}` } });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
      const html = await page.text();
      expect(html).toContain("Serviço temporariamente indisponível");
      expect(html).toContain(page.headers.get("x-request-id")!);
      const api = await fetch(`${url}/api/trail`, { headers: { cookie: `b1_session=${user.token}` } });
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await api.json()) as unknown).toEqual({ error: expect.stringMatching(/indisponível/) });
      const warnings = logs.records().filter((record) => record.msg === "banco de dados indisponível");
      expect(warnings.map((record) => [record.level, record.reqId])).toEqual([
        [40, page.headers.get("x-request-id")],
        [40, api.headers.get("x-request-id")],
      ]);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
