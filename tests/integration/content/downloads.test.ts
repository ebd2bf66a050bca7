/**
 * Files kept in content/arquivos/ and offered by a page: the gate serves each one only to people who
 * may open a page that lists it, with its type, an attachment name and nosniff; any other spelling
 * or name is not found, and nothing of it is public. Runs the built server (`npm run build` first).
 */
import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
const who: Record<string, TestUser> = {};

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["visualizador", "admin"]) who[role] = await createTestUser(server.db, [role]);
});
afterAll(() => server?.stop());

/** A request with the path sent exactly as written (fetch would resolve dot segments itself). */
function raw(
  path: string,
  user: TestUser | null,
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { hostname, port, path, method, headers: user ? { cookie: `b1_session=${user.token}` } : {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const TEMPLATE = "/arquivos/canvas-ideacao.pdf";
const ADMIN_ONLY = "/arquivos/exemplo-modelo.pdf";

describe("downloads through the gate", () => {
  it("a reader of the listing page gets the file with its type, attachment name, nosniff and no caching", async () => {
    const response = await raw(TEMPLATE, who.visualizador!);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="canvas-ideacao.pdf"');
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cache-control"]).toBe("private, no-store");
    expect(response.body.equals(fs.readFileSync("content/arquivos/canvas-ideacao.pdf"))).toBe(true);

    const head = await raw(TEMPLATE, who.visualizador!, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(response.body.length));
    expect((await raw(TEMPLATE, who.visualizador!, "POST")).status).toBe(405);
  });

  it("a signed-out visitor is sent to sign in and comes back to the file", async () => {
    const response = await raw(TEMPLATE, null);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`/auth?next=${encodeURIComponent(TEMPLATE)}`);
    expect(response.body.length).toBe(0);
  });

  it("a visualizador who may not open the page that lists the file gets the gate's refusal; an admin gets the file", async () => {
    for (const spelling of [
      ADMIN_ONLY,
      "//arquivos//exemplo-modelo.pdf",
      "/arquivos/./exemplo-modelo.pdf",
      "/arquivos/exemplo%2Dmodelo.pdf",
    ]) {
      const refused = await raw(spelling, who.visualizador!);
      expect(refused.status, spelling).toBe(302);
      expect(refused.headers.location, spelling).toBe("/acesso-negado?pagina=%2Fexemplo-componentes");
      expect(refused.body.length, spelling).toBe(0);
    }
    const allowed = await raw(ADMIN_ONLY, who.admin!);
    expect(allowed.status).toBe(200);
    expect(allowed.headers["content-disposition"]).toBe('attachment; filename="exemplo-modelo.pdf"');
  });

  it("traversal and unlisted names are not found, for any reader", async () => {
    const attempts = [
      "/arquivos/../package.json",
      "/arquivos/%2e%2e/%2e%2e/package.json",
      "/arquivos/..%2f..%2fpackage.json",
      "/arquivos/..%5c..%5cpackage.json",
      "/arquivos/README.md",
      "/arquivos/CANVAS-IDEACAO.pdf",
      "/arquivos/canvas-ideacao.pdf%00.html",
      "/arquivos/canvas-ideacao.pdf/",
      "/arquivos/canvas-ideacao.pdf.br",
      "/arquivos/",
      "/arquivos",
      "/content/arquivos/canvas-ideacao.pdf",
      "/canvas-ideacao.pdf",
      "/downloads.json",
      "/arquivos/%252e%252e/package.json",
    ];
    for (const path of attempts) {
      const response = await raw(path, who.admin!);
      // A trailing slash is the same path to the gate; every other spelling is no file of the portal.
      if (path === "/arquivos/canvas-ideacao.pdf/") {
        expect(response.headers["content-disposition"], path).toBe('attachment; filename="canvas-ideacao.pdf"');
        continue;
      }
      expect(response.status, path).toBe(404);
      expect(response.headers["content-disposition"], path).toBeUndefined();
      expect(response.body.includes("%PDF"), path).toBe(false);
    }
  });

  it("no file is in the public folder", () => {
    expect(fs.existsSync("dist/client/arquivos")).toBe(false);
    expect(fs.existsSync("dist/client/canvas-ideacao.pdf")).toBe(false);
  });
});
