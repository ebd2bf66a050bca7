import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../../src/lib/server/config";
import { loadAssets, loadPages } from "../../../src/lib/server/static-files";
import { createGate } from "../../../src/server/gate";
import { createTestUser, openTestDatabase } from "../../support/users";

describe("uncaught errors", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-err-"));
  const db = openTestDatabase(path.join(dir, "db.sqlite"));
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    const gate = createGate({
      db,
      config: readConfig({ DATABASE_PATH: path.join(dir, "db.sqlite") }),
      assets: loadAssets("dist/client"),
      pages: loadPages("dist/pages"),
      appHandler: async () => {
        throw new Error("falha interna com detalhe secreto");
      },
    });
    server = http.createServer(gate);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows the 500 page without the stack and logs the detail", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const user = await createTestUser(db, ["visualizador"]);
    const response = await fetch(`${url}/api/trail`, { headers: { cookie: `b1_session=${user.token}` } });
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toContain("detalhe secreto");
    expect(String(log.mock.calls[0]?.[1])).toContain("detalhe secreto");
    log.mockRestore();
  });
});
