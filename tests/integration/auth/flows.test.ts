import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs, emailTokens, sessions, users } from "../../../db/schema/index";
import { MESSAGES } from "../../../src/lib/auth/schemas";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { readMails, waitForLink } from "../../support/mail";
import { createTestUser } from "../../support/users";

let server: RunningServer;
let outbox: string;
const UA = "TesteAgente/1.0";

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "user-agent": UA, ...headers },
    body: JSON.stringify(body),
    redirect: "manual",
  });
}

const counts = async () => ({
  users: (await server.db.select().from(users)).length,
  tokens: (await server.db.select().from(emailTokens)).length,
  sessions: (await server.db.select().from(sessions)).length,
});

const audits = async (action: string) => await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, action));

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100" });
  outbox = path.join(server.dataDir, "outbox");
});
afterAll(() => server?.stop());

describe("server-side validation (browser bypassed)", () => {
  const good = { fullName: "Maria Silva", email: "maria@b1.example.com", password: "Senha@123", confirmPassword: "Senha@123" };
  it.each([
    ["sign-up", "fullName", { ...good, fullName: "M" }, MESSAGES.name],
    ["sign-up", "email", { ...good, email: "maria@" }, MESSAGES.email],
    ["sign-up", "password", { ...good, password: "senha123", confirmPassword: "senha123" }, MESSAGES.password],
    ["sign-up", "password", { ...good, password: "Senha 123!", confirmPassword: "Senha 123!" }, MESSAGES.password],
    ["sign-up", "password", { ...good, password: "Sen@1a", confirmPassword: "Sen@1a" }, MESSAGES.password],
    ["sign-up", "confirmPassword", { ...good, confirmPassword: "Senha@124" }, MESSAGES.confirm],
    ["sign-in", "email", { email: "nao-e-email", password: "x" }, MESSAGES.email],
    ["sign-in", "password", { email: "maria@b1.example.com", password: "" }, MESSAGES.passwordRequired],
    ["reset-request", "email", { email: "nao-e-email" }, MESSAGES.email],
    ["update-password", "password", { token: "x", password: "fraca", confirmPassword: "fraca" }, MESSAGES.password],
    ["update-password", "confirmPassword", { token: "x", password: "Senha@123", confirmPassword: "Senha@999" }, MESSAGES.confirm],
  ])("%s rejects a bad %s with the spec's message and changes nothing", async (endpoint, field, body, message) => {
    const before = await counts();
    const response = await post(`/api/auth/${endpoint}`, body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { fields: Record<string, string> };
    expect(json.fields[field]).toBe(message);
    expect(await counts()).toEqual(before);
  });

  it("rejects malformed JSON with a Portuguese message", async () => {
    const response = await fetch(server.url + "/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: "{nope",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Requisição inválida: JSON malformado" });
  });

  it("refuses unauthorised domains on sign-up, sign-in and reset, audited as invalid_domain", async () => {
    const before = await counts();
    const message = "E-mail deve ser de um domínio autorizado. Entre em contato com o administrador se necessário.";
    for (const [endpoint, body] of [
      ["sign-up", { ...good, email: "maria@b1.example.com.evil.com" }],
      ["sign-in", { email: "maria@evil-b1.example.com", password: "Senha@123" }],
      ["reset-request", { email: "MARIA@B1.EXAMPLE.COM.EVIL.COM" }],
    ] as const) {
      const response = await post(`/api/auth/${endpoint}`, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: message, code: "invalid_domain" });
    }
    expect(await counts()).toEqual(before);
    const failures = (await server.db.select().from(auditLogs)).filter((row) => row.actionDetails?.includes('"invalid_domain"'));
    expect(failures.map((row) => row.actionType).sort()).toEqual(["password_reset_request", "user_login_attempt", "user_signup_attempt"]);
    expect(failures.every((row) => row.result === "failure" && row.ipAddress === "127.0.0.1" && row.userAgent === UA)).toBe(true);
  });
});

describe("sign-up → confirmation → sign-in", () => {
  const email = "joana@b1.example.com";
  const password = "Senha@Joana1";

  it("creates an unconfirmed visualizador, mails a link, and refuses sign-in until confirmed", async () => {
    const response = await post("/api/auth/sign-up", {
      fullName: "Joana Prado",
      email: "Joana@B1.example.com",
      password,
      confirmPassword: password,
    });
    expect(response.status).toBe(201);
    const user = (await server.db.select().from(users).where(eq(users.email, email)))[0]!;
    expect(user.emailConfirmedAt).toBeNull();
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const early = await post("/api/auth/sign-in", { email, password });
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ code: "email_not_confirmed" });
    expect(await audits("user_signup_success")).toHaveLength(1);
  });

  it("confirms through the mailed link once with the sign-up password, without signing in", async () => {
    const link = await waitForLink(outbox, email, "/api/auth/confirm");
    const token = new URL(link).searchParams.get("token")!;
    const opened = await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/auth?mode=confirm&token=${token}`);
    const wrong = await post("/api/auth/confirm", { token, password: "Senha@Errada1" });
    expect(wrong.status).toBe(401);
    const confirm = await post("/api/auth/confirm", { token, password });
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get("set-cookie")).toBeNull();
    const again = await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: "manual" });
    expect(again.headers.get("location")).toBe("/link-expired?type=email-confirmation");
    expect((await post("/api/auth/confirm", { token, password })).status).toBe(400);
    expect((await audits("user_email_confirmed")).filter((row) => row.result === "success")).toHaveLength(1);
  });

  it("refuses a second account with a confirmed e-mail", async () => {
    const response = await post("/api/auth/sign-up", { fullName: "Outra", email, password, confirmPassword: password });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "email_taken" });
  });

  it("signs in with the right password and refuses a wrong one with the spec's message", async () => {
    const wrong = await post("/api/auth/sign-in", { email, password: "Senha@Errada1" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "E-mail ou senha incorretos. Verifique suas credenciais e tente novamente." });
    const ok = await post("/api/auth/sign-in", { email, password, next: "//evil.example.com/x" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, next: "/" });
    const success = (await audits("user_login_success")).at(-1)!;
    expect(success.ipAddress).toBe("127.0.0.1");
    expect(success.userAgent).toBe(UA);
    expect(
      (await audits("user_login_attempt")).some((row) => row.result === "failure" && row.actionDetails?.includes("invalid_credentials")),
    ).toBe(true);
  });

  it("keeps a same-origin return path", async () => {
    const ok = await post("/api/auth/sign-in", { email, password, next: "/templates?x=1" });
    expect(await ok.json()).toEqual({ ok: true, next: "/templates?x=1" });
  });
});

describe("password reset", () => {
  it("answers identically for existing and unknown accounts", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const known = await post("/api/auth/reset-request", { email: user.email });
    const unknown = await post("/api/auth/reset-request", { email: "ninguem@b1.example.com" });
    expect(known.status).toBe(unknown.status);
    expect(await known.text()).toBe(await unknown.text());
    await waitForLink(outbox, user.email, "mode=update-password");
    expect(readMails(outbox, "ninguem@b1.example.com")).toEqual([]);
    // The lookup and its audit row run after the answer, for the unknown address too: waiting for the
    // known one's mail says nothing of when the other request's deferred row lands.
    await expect
      .poll(async () => (await audits("password_reset_request")).filter((row) => row.result === "success").length)
      .toBeGreaterThanOrEqual(2);
  });

  it("sets a new password once, ends every session, and the old password stops working", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    await post("/api/auth/reset-request", { email: user.email });
    const link = await waitForLink(outbox, user.email, "mode=update-password");
    const token = new URL(link).searchParams.get("token")!;
    const newPassword = "Nova@Senha22";
    const response = await post("/api/auth/update-password", { token, password: newPassword, confirmPassword: newPassword });
    expect(response.status).toBe(200);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(401);
    expect((await post("/api/auth/sign-in", { email: user.email, password: newPassword })).status).toBe(200);
    const reuse = await post("/api/auth/update-password", { token, password: "Outra@Senha3", confirmPassword: "Outra@Senha3" });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ code: "link_expired" });
    expect((await audits("password_reset_success")).some((row) => row.userId === user.id)).toBe(true);
  });

  it("refuses an expired reset link", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    await post("/api/auth/reset-request", { email: user.email });
    const link = await waitForLink(outbox, user.email, "mode=update-password");
    await server.db
      .update(emailTokens)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(emailTokens.userId, user.id));
    const token = new URL(link).searchParams.get("token")!;
    const response = await post("/api/auth/update-password", { token, password: "Nova@Senha22", confirmPassword: "Nova@Senha22" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "link_expired" });
  });
});
