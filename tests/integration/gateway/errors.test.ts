import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";
import { loadAssets, loadPages } from "../../../src/lib/server/content/static-files";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createGate } from "../../../src/server/gate";
import { createObservedListener } from "../../../src/server/observability/listener";
import { captureLogs } from "../../support/log-capture";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

describe("uncaught errors", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-err-"));
  let db: Db;
  const logs = captureLogs();
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
    const gate = createGate({
      db,
      config: readConfig({ DATABASE_PATH: path.join(dir, "db.sqlite") }),
      assets: loadAssets("dist/client"),
      pages: loadPages("dist/pages"),
      logger: logs.logger,
      appHandler: async () => {
        throw new Error("falha interna com detalhe secreto");
      },
    });
    const listener = createObservedListener({ gate, respondToHealthProbe: async () => {}, logger: logs.logger, trustProxy: false });
    server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.close();
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows the 500 page with the request id and without the stack; logs the error once, with the stack", async () => {
    const user = await createTestUser(db, ["visualizador"]);
    const response = await fetch(`${url}/api/trail`, { headers: { cookie: `b1_session=${user.token}` } });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const html = await response.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).toContain(`informe este código ao suporte: <code class="font-mono select-all" data-request-id>${requestId}</code>`);
    expect(html).not.toContain("detalhe secreto");

    const ofRequest = logs.records().filter((record) => record.reqId === requestId);
    const errors = ofRequest.filter((record) => record.level === 50);
    expect(errors).toHaveLength(1);
    expect((errors[0]!.err as { stack: string }).stack).toMatch(/falha interna com detalhe secreto\n\s+at /);
    expect(ofRequest.find((record) => record.msg === "requisição")).toMatchObject({ status: 500, path: "/api/trail", userId: user.id });
    expect(logs.lines.join("\n")).not.toContain(user.token);
  });
});
