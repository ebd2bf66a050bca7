import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../../db/schema/index";
import { readConfig } from "../../../src/lib/server/config/config";
import { startBuiltServer, type RunningServer } from "../../support/server";

const signUp = (server: RunningServer, email: string) =>
  fetch(server.url + "/api/auth/sign-up", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ fullName: "Pessoa de Fora", email, password: "Senha@Fora1", confirmPassword: "Senha@Fora1" }),
  });

describe("the allow-list defaults", () => {
  it("has no example domain or address when nothing is configured", () => {
    expect(readConfig({})).toMatchObject({ allowedDomains: [], allowedEmails: [] });
  });

  it("keeps no example address when only the domains are configured", () => {
    expect(readConfig({ AUTH_ALLOWED_DOMAINS: "empresa.example" })).toMatchObject({
      allowedDomains: ["empresa.example"],
      allowedEmails: [],
    });
  });
});

describe("an outsider signing up with the example address the defaults used to allow", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ AUTH_ALLOWED_DOMAINS: "empresa.example" });
  });
  afterAll(() => server?.stop());

  it("is refused when only AUTH_ALLOWED_DOMAINS is set", async () => {
    const response = await signUp(server, "parceiro@example.net");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_domain" });
    expect(await server.db.select().from(users)).toEqual([]);
  });
});

describe("a portal started with no allow-list", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ AUTH_ALLOWED_DOMAINS: "", AUTH_ALLOWED_EMAILS: "" });
  });
  afterAll(() => server?.stop());

  it("refuses every sign-up with a clear Portuguese message and says why in the log", async () => {
    const response = await signUp(server, "alguem@b1.example.com");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: "allow_list_empty",
      error: "Cadastro indisponível: nenhum domínio de e-mail autorizado foi configurado. Contate o administrador do portal.",
    });
    expect(await server.db.select().from(users)).toEqual([]);
    expect(server.output()).toMatch(/AUTH_ALLOWED_DOMAINS/);
  });
});
