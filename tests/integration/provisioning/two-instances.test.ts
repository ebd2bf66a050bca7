/**
 * Deactivation by the directory through one instance ends a live session on another instance at
 * that session's next request (PostgreSQL pass only: on SQLite the portal is one process).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { linkToDirectory, scim, SCIM_TOKEN } from "../../support/scim";
import { createTestUser } from "../../support/users";

describe.skipIf(!onPostgres)("SCIM deactivation across two instances on one PostgreSQL", () => {
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    const url = (await freshDatabaseUrl())!;
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-scim-pair-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    [a, b] = (await Promise.all(folders.map((dataDir) => startBuiltServer({ SCIM_TOKEN }, { dataDir })))) as [RunningServer, RunningServer];
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  const open = (server: RunningServer, token: string) =>
    fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${token}` }, redirect: "manual" });

  it("the session B has cached is refused at its next request once A deactivates the account", async () => {
    const person = await createTestUser(a.db, ["visualizador"], "scim-par");
    // B validates the session twice, so it sits in B's cache.
    expect((await open(b, person.token)).status).toBe(200);
    expect((await open(b, person.token)).status).toBe(200);
    const found = await scim(a, "GET", `/Users?filter=userName eq "${person.email}"`);
    const id = found.body!.Resources[0].id;
    await linkToDirectory(a, id);
    const off = await scim(a, "PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.status).toBe(200);
    const next = await open(b, person.token);
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toMatch(/^\/auth/);
  });
});
