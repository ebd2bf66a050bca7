/**
 * Provisioning II (RFC 7643/7644 conformance) items, on the built server, both engines:
 * only an explicit `active: true` reactivates a deactivated account (a PUT without `active`, or
 * `remove active`, used to reactivate it); `/Me` and `POST /.search` are 404 (not supported, as
 * docs/provisionamento.md says).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { eq } from "drizzle-orm";
import { rememberedDevices } from "../../../db/schema/index";
import { linkToDirectory, scim, SCIM_TOKEN } from "../../support/scim";
import { createTestUser } from "../../support/users";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM conformance", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a deactivated account stays deactivated until an explicit active: true", async () => {
    const id = (await scim(server, "POST", "/Users", { schemas: [USER], userName: "reativa@b1.example.com" })).body!.id;
    expect((await scim(server, "GET", `/Users/${id}`)).body).toMatchObject({ active: true });
    await scim(server, "PATCH", `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: "replace", path: "active", value: false }] });
    const put = await scim(server, "PUT", `/Users/${id}`, { schemas: [USER], userName: "reativa@b1.example.com", title: "Analista" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ active: false, title: "Analista" });
    const removed = await scim(server, "PATCH", `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: "remove", path: "active" }] });
    expect(removed.body).toMatchObject({ active: false });
    const back = await scim(server, "PUT", `/Users/${id}`, { schemas: [USER], userName: "reativa@b1.example.com", active: true });
    expect(back.body).toMatchObject({ active: true });
    // A create without `active` is an active account, as before.
    expect((await scim(server, "POST", "/Users", { schemas: [USER], userName: "nova-ativa@b1.example.com" })).body).toMatchObject({
      active: true,
    });
  });

  it("/Me and POST /.search are 404 SCIM errors", async () => {
    for (const [method, path, body] of [
      ["GET", "/Me", undefined],
      ["POST", "/.search", { schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"] }],
      ["POST", "/Users/.search", { schemas: ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"] }],
    ] as const) {
      const response = await scim(server, method, path, body);
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ status: "404" });
    }
  });

  it("a deactivation by the directory also forgets the person's remembered browsers", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "dispositivo");
    await linkToDirectory(server, person.id);
    const signIn = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: person.email, password: person.password }),
    });
    expect(signIn.status).toBe(200);
    const devices = () => server.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, person.id));
    expect(await devices()).toHaveLength(1);
    const off = await scim(server, "PATCH", `/Users/${person.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expect(off.body).toMatchObject({ active: false });
    expect(await devices()).toHaveLength(0);
  });
});
