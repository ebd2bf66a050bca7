/**
 * What stands between the directory's API and the accounts: the bearer token (401 and nothing
 * written without it), the allowed-domain rule, SCIM off without a token, parallel duplicate
 * creates, and the machine-to-machine edge (no cookie, no Origin needed); both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { auditLogs, directoryGroups, users } from "../../../db/schema/index.ts";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM guards", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function counts() {
    const [u] = await server.db.select({ n: count() }).from(users);
    const [g] = await server.db.select({ n: count() }).from(directoryGroups);
    const [a] = await server.db.select({ n: count() }).from(auditLogs);
    return { users: Number(u!.n), groups: Number(g!.n), audit: Number(a!.n) };
  }

  it("a missing or wrong token gets 401 with a SCIM error and writes nothing", async () => {
    const created = await scim(server, "POST", "/Users", { schemas: [USER], userName: "alvo@b1.example.com", active: true });
    const before = await counts();
    const tries = [
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "intruso@b1.example.com" }, null),
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "intruso@b1.example.com" }, SCIM_TOKEN + "x"),
      await scim(server, "POST", "/Groups", { displayName: "intrusos" }, SCIM_TOKEN.slice(0, -1)),
      await scim(
        server,
        "PATCH",
        `/Users/${created.body!.id}`,
        { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] },
        "errado",
      ),
      await scim(server, "DELETE", `/Users/${created.body!.id}`, undefined, null),
      await scim(server, "GET", "/Users", undefined, null),
    ];
    for (const response of tries) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "401" });
    }
    expect(await counts()).toEqual(before);
    expect((await scim(server, "GET", `/Users/${created.body!.id}`)).body!.active).toBe(true);
  });

  it("a session cookie is no substitute for the token", async () => {
    const { createTestUser } = await import("../../support/users");
    const admin = await createTestUser(server.db, ["admin"], "admin-scim");
    const response = await fetch(`${server.url}/scim/v2/Users`, { headers: { cookie: `b1_session=${admin.token}`, origin: server.url } });
    expect(response.status).toBe(401);
  });

  it("an address outside the allowed domains is refused with a Portuguese SCIM error", async () => {
    const before = await counts();
    const response = await scim(server, "POST", "/Users", { schemas: [USER], userName: "alguem@outra-empresa.example", active: true });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: "400", scimType: "invalidValue", detail: expect.stringContaining("domínio autorizado") });
    const notEmail = await scim(server, "POST", "/Users", { schemas: [USER], userName: "Test_User_sem_email", active: true });
    expect(notEmail.status).toBe(400);
    expect(notEmail.body!.detail).toMatch(/e-mail corporativo/);
    expect(await counts()).toEqual(before);
  });

  it("a PATCH moving userName to a foreign domain is refused and changes nothing", async () => {
    const created = await scim(server, "POST", "/Users", { schemas: [USER], userName: "muda@b1.example.com", active: true });
    const response = await scim(server, "PATCH", `/Users/${created.body!.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "userName", value: "muda@outra-empresa.example" }],
    });
    expect(response.status).toBe(400);
    expect((await scim(server, "GET", `/Users/${created.body!.id}`)).body!.userName).toBe("muda@b1.example.com");
  });

  it("bad input gets a 4xx SCIM error, never a 5xx", async () => {
    const bad = [
      await scim(server, "POST", "/Users", "não é um objeto"),
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "x@b1.example.com", active: "talvez" }),
      await scim(server, "GET", '/Users?filter=name.givenName co "a"'),
      await scim(server, "GET", "/Users?filter=userName eq"),
      await scim(server, "PATCH", "/Users/nao-existe", { schemas: [PATCH], Operations: [] }),
      await scim(server, "GET", "/Desconhecido"),
    ];
    expect(bad.map((response) => response.status)).toEqual([400, 400, 400, 400, 404, 404]);
    const raw = await fetch(`${server.url}/scim/v2/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" },
      body: "{ quebrado",
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ scimType: "invalidSyntax" });
  });

  it("a NUL character in a filter, an id or any string of a body is a 400 SCIM error and writes nothing (PostgreSQL refuses it in text)", async () => {
    const created = await scim(server, "POST", "/Users", { schemas: [USER], userName: "nul-scim@b1.example.com", externalId: "nul-1" });
    const group = await scim(server, "POST", "/Groups", { displayName: "grupo-nul" });
    const before = await counts();
    const tries = [
      await scim(server, "GET", `/Users?filter=${encodeURIComponent('userName eq "a\u0000b@b1.example.com"')}`),
      await scim(server, "GET", `/Users?filter=${encodeURIComponent('externalId eq "nul\u0000"')}`),
      await scim(server, "GET", `/Groups?filter=${encodeURIComponent('displayName eq "g\u0000"')}`),
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "nova\u0000@b1.example.com" }),
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "nova@b1.example.com", externalId: "x\u0000" }),
      await scim(server, "POST", "/Users", { schemas: [USER], userName: "nova@b1.example.com", name: { formatted: "Nova\u0000" } }),
      await scim(server, "POST", "/Groups", { displayName: "grupo\u0000" }),
      await scim(server, "PUT", `/Users/${created.body!.id}`, {
        schemas: [USER],
        userName: "nul-scim@b1.example.com",
        displayName: "N\u0000",
      }),
      await scim(server, "PATCH", `/Users/${created.body!.id}`, {
        schemas: [PATCH],
        Operations: [{ op: "replace", path: "externalId", value: "outro\u0000" }],
      }),
      await scim(server, "PATCH", `/Groups/${group.body!.id}`, {
        schemas: [PATCH],
        Operations: [{ op: "add", path: "members", value: [{ value: `${created.body!.id}\u0000` }] }],
      }),
      await scim(server, "PATCH", `/Groups/${group.body!.id}`, {
        schemas: [PATCH],
        Operations: [{ op: "replace", path: "displayName", value: "novo\u0000" }],
      }),
    ];
    // A NUL in the path never reaches the service: the gate's unroutable-path answer.
    for (const [method, path] of [
      ["GET", "/Users/a%00b"],
      ["GET", "/Groups/a%00b"],
      ["DELETE", "/Users/a%00b"],
    ]) {
      const response = await fetch(`${server.url}/scim/v2${path}`, { method, headers: { authorization: `Bearer ${SCIM_TOKEN}` } });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    for (const response of tries) {
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "400" });
      expect(response.body!.detail).toMatch(/caractere/i);
    }
    expect(await counts()).toEqual(before);
  });

  it("parallel creates of the same person: exactly one 201, the rest 409", async () => {
    const body = { schemas: [USER], userName: "paralelo@b1.example.com", externalId: "paralelo-1", active: true };
    const answers = await Promise.all(Array.from({ length: 8 }, () => scim(server, "POST", "/Users", body)));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const listed = await scim(server, "GET", '/Users?filter=externalId eq "paralelo-1"');
    expect(listed.body!.totalResults).toBe(1);
  });

  it("a deactivated account gets no password reset link (a live one does)", async () => {
    const { readMails } = await import("../../support/mail");
    const { eq } = await import("drizzle-orm");
    const outbox = `${server.dataDir}/outbox`;
    for (const [userName, active] of [
      ["ativa-reset@b1.example.com", true],
      ["inativa-reset@b1.example.com", false],
    ] as const) {
      expect((await scim(server, "POST", "/Users", { schemas: [USER], userName, active })).status).toBe(201);
      const response = await fetch(`${server.url}/api/auth/reset-request`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: userName }),
      });
      expect(response.status).toBe(200);
    }
    // The link is sent after the answer: wait for the live account's mail, then for the other's audit row.
    await expect.poll(() => readMails(outbox, "ativa-reset@b1.example.com").length, { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "password_reset_request"))).length, {
        timeout: 10_000,
      })
      .toBe(2);
    expect(readMails(outbox, "inativa-reset@b1.example.com")).toEqual([]);
  });

  it("the discovery endpoints answer application/scim+json", async () => {
    const config = await scim(server, "GET", "/ServiceProviderConfig");
    expect(config.status).toBe(200);
    expect(config.contentType).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const types = await scim(server, "GET", "/ResourceTypes");
    expect(types.body!.Resources.map((type: { id: string }) => type.id)).toEqual(["User", "Group"]);
    expect((await scim(server, "GET", "/ResourceTypes/User")).body).toMatchObject({ endpoint: "/Users" });
    const schemas = await scim(server, "GET", "/Schemas");
    // RFC 7643 §6: every schema a resource type declares (the enterprise extension too) is published.
    expect(schemas.body!.totalResults).toBe(3);
    expect((await scim(server, "GET", `/Schemas/${USER}`)).body).toMatchObject({ id: USER, name: "User" });
    const enterprise = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
    expect((await scim(server, "GET", `/Schemas/${enterprise}`)).body).toMatchObject({ id: enterprise, name: "EnterpriseUser" });
  });
});

describe("SCIM off", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN: undefined });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("without SCIM_TOKEN /scim/v2 is not found, whatever token is sent", async () => {
    const headers = { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" };
    expect((await fetch(`${server.url}/scim/v2/Users`, { headers })).status).toBe(404);
    const post = await fetch(`${server.url}/scim/v2/Users`, {
      method: "POST",
      headers,
      body: JSON.stringify({ userName: "a@b1.example.com" }),
    });
    expect(post.status).toBe(404);
    const [{ n }] = (await server.db.select({ n: count() }).from(users)) as [{ n: number }];
    expect(Number(n)).toBe(0);
  });
});

describe("SCIM_TOKEN too short", () => {
  it("stops the start", async () => {
    await expect(startBuiltServer({ SCIM_TOKEN: "curto" }, { startTimeoutMs: 8000 })).rejects.toThrow();
  });
});
