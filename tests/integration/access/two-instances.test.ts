/**
 * Access II on two gates over one PostgreSQL database (as behind a load balancer): a restriction made
 * through instance A, and a role marked 'Acesso limitado' there, are enforced by instance B at its
 * next request — pages and search files (PostgreSQL pass only: on SQLite the portal is one process).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignRoleByEmail, createCustomRole } from "../../../src/lib/server/admin/roles";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

describe.skipIf(!onPostgres)("access II on two PostgreSQL instances", () => {
  let a: RunningServer;
  let b: RunningServer;
  let admin: TestUser;
  let reader: TestUser;
  let partner: TestUser;

  const get = (server: RunningServer, urlPath: string, user: TestUser) =>
    fetch(server.url + urlPath, { redirect: "manual", headers: { cookie: `b1_session=${user.token}` } });

  beforeAll(async () => {
    const url = (await freshDatabaseUrl())!;
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-acesso-par-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    [a, b] = (await Promise.all(folders.map((dataDir) => startBuiltServer({}, { dataDir })))) as [RunningServer, RunningServer];
    admin = await createTestUser(a.db, ["admin"]);
    reader = await createTestUser(a.db, ["visualizador"]);
    partner = await createTestUser(a.db, [], "parceiro");
    const created = await createCustomRole(a.db, { name: "parceiros-par", description: "", pagePaths: ["/5ps"] });
    if (!created.ok) throw new Error("perfil");
    expect(await assignRoleByEmail(a.db, partner.email, "parceiros-par")).toBe(true);
  }, 90_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("B enforces a restriction and a limitation made through A at its next request", async () => {
    // B has served both already (their sessions are in its cache).
    expect((await get(b, "/faq", reader)).status).toBe(200);
    expect((await get(b, "/faq", partner)).status).toBe(200);
    const groupsBefore = (await (await get(b, "/pagefind/grupos.json", partner)).json()) as string[];
    expect(groupsBefore).toEqual([]);

    const headers = { cookie: `b1_session=${admin.token}`, origin: a.url, "content-type": "application/json" };
    const list = (await (await fetch(a.url + "/api/admin/page-access", { headers })).json()) as {
      pages: { path: string; version: number }[];
    };
    const version = list.pages.find((page) => page.path === "/faq")!.version;
    const restricted = await fetch(a.url + "/api/admin/page-access", {
      method: "PUT",
      headers,
      body: JSON.stringify({ path: "/faq", roles: ["lider"], version }),
    });
    expect(restricted.status).toBe(200);
    const roles = (await (await fetch(a.url + "/api/admin/roles", { headers })).json()) as { roles: { id: number; name: string }[] };
    const role = roles.roles.find((candidate) => candidate.name === "parceiros-par")!;
    const limited = await fetch(`${a.url}/api/admin/roles/${role.id}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ name: "parceiros-par", description: "", pages: ["/5ps"], limited: true }),
    });
    expect(limited.status).toBe(200);

    const denied = await get(b, "/faq", reader);
    expect(denied.status).toBe(302);
    expect(denied.headers.get("location")).toBe("/acesso-negado?pagina=%2Ffaq");
    expect((await get(b, "/templates", partner)).status).toBe(302);
    expect((await get(b, "/5ps", partner)).status).toBe(200);
    // Search on B: the partner now gets the bundles of the pages they open — the home page (public, and
    // searchable) as the primary, their one page merged in — and no base.
    expect(await (await get(b, "/pagefind/grupos.json", partner)).json()).toEqual(["5ps"]);
    const entry = await get(b, "/pagefind/pagefind-entry.json", partner);
    expect(entry.status).toBe(200);
    const own = new Set([
      ...fs.readdirSync("dist/search/5ps/pagefind/fragment"),
      ...fs.readdirSync("dist/search/_inicio/pagefind/fragment"),
    ]);
    const baseOnly = fs.readdirSync("dist/search/base/pagefind/fragment").find((name) => !own.has(name))!;
    expect((await get(b, `/pagefind/fragment/${baseOnly}`, partner)).status).toBe(404);
  }, 60_000);
});
