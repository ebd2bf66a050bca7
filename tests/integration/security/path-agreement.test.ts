import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { createRequestFromNodeRequest } from "astro/app/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";
import { loadAssets, loadPages } from "../../../src/lib/server/content/static-files";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createGate } from "../../../src/server/gate";
import { createTestUser, openOwnTestDatabase, type TestUser } from "../../support/users";
import { rawRequest } from "../../support/raw-http";

/** What the adapter would route on: the URL Astro's own createRequest builds from the request. */
interface Handled {
  pathname: string;
  host: string;
}

describe("the adapter handles exactly the path the gate decided on", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-path-"));
  let db: Db;
  const handled: Handled[] = [];
  let server: http.Server;
  let url: string;
  let admin: TestUser;

  beforeAll(async () => {
    db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
    admin = await createTestUser(db, ["admin"]);
    let gate: http.RequestListener = () => {};
    server = http.createServer((req, res) => gate(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gate = createGate({
      db,
      config: readConfig({ DATABASE_PATH: path.join(dir, "db.sqlite"), PUBLIC_URL: url }),
      assets: loadAssets("dist/client"),
      pages: loadPages("dist/pages"),
      appHandler: async (req, res) => {
        const request = createRequestFromNodeRequest(req, { skipBody: true });
        const { pathname, host } = new URL(request.url);
        handled.push({ pathname, host });
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ pathname }));
      },
    });
  });

  afterAll(async () => {
    server.close();
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function send(method: string, target: string, host: string, extra = "") {
    handled.length = 0;
    return rawRequest(
      url,
      `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${url}\r\nCookie: b1_session=${admin.token}\r\nConnection: close\r\n${extra}\r\n`,
    );
  }

  it("refuses DELETE /api/admin/users/..%2F..%2Fauth%2Fsign-in (gate: sign-in, Astro: users/[id]) before any endpoint runs", async () => {
    const reply = await send("DELETE", "/api/admin/users/..%2F..%2Fauth%2Fsign-in", new URL(url).host);
    expect(handled).toEqual([]);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).toContain('{"error":"Não encontrado"}');
  });

  it.each([
    "/api/x/../admin/users",
    "/api/admin/./users",
    "/api//admin/users",
    "/api/admin/users%2F",
    "/api\\admin\\users",
    "/api/trail#/../admin/users",
  ])("refuses the API spelling %s whose raw form would route elsewhere", async (target) => {
    const reply = await send("GET", target, new URL(url).host);
    expect(handled).toEqual([]);
    expect(reply).toMatch(/^HTTP\/1\.1 (400|404) /);
  });

  it("refuses a Host header that carries a path (`127.0.0.1:PORT/api/admin/users/<id>#`) with 400", async () => {
    const reply = await send("DELETE", "/api/auth/sign-in", `${new URL(url).host}/api/admin/users/${admin.id}#`);
    expect(handled).toEqual([]);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
  });

  it.each(["/api/admin/users", "/api/admin/users/", "/api/admin/users?q=%2F..%2F"])(
    "hands %s to the adapter as /api/admin/users on PUBLIC_URL's host",
    async (target) => {
      const reply = await send("GET", target, "outro-host.example:8080");
      expect(reply).toMatch(/^HTTP\/1\.1 200 /);
      expect(handled).toEqual([{ pathname: "/api/admin/users", host: new URL(url).host }]);
    },
  );
});
