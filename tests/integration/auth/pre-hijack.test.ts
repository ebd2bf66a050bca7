import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index";
import { decodeQuotedPrintable, readMails, waitForLink } from "../../support/mail";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

let server: RunningServer;
let outbox: string;

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: JSON.stringify(body),
    redirect: "manual",
  });
}

const signUp = async (email: string, password: string, fullName = "Pessoa Teste") =>
  post("/api/auth/sign-up", { fullName, email, password, confirmPassword: password });
const signIn = (email: string, password: string) => post("/api/auth/sign-in", { email, password });
const local = (link: string) => link.replace(/^https?:\/\/[^/]+/, server.url);
const isConfirmed = async (email: string) =>
  (await server.db.select().from(users).where(eq(users.email, email)))[0]?.emailConfirmedAt != null;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100" });
  outbox = path.join(server.dataDir, "outbox");
});
afterAll(() => server?.stop());

describe("login CSRF through a confirmation link", () => {
  it("an attacker's confirm link opened by a signed-in colleague keeps her session and sets no cookie", async () => {
    const colleague = await createTestUser(server.db, ["visualizador"], "colega");
    const cookie = `b1_session=${colleague.token}`;
    const attackerEmail = "atacante-csrf@b1.example.com";
    const attackerPassword = "Senha@Atac1";
    expect((await signUp(attackerEmail, attackerPassword)).status).toBe(201);
    const link = await waitForLink(outbox, attackerEmail, "/api/auth/confirm");

    const opened = await fetch(local(link), { headers: { cookie }, redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("set-cookie")).toBeNull();
    const token = new URL(link).searchParams.get("token")!;
    const confirmed = await post("/api/auth/confirm", { token, password: attackerPassword }, { cookie });
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("set-cookie")).toBeNull();

    expect(await server.db.select().from(sessions).where(eq(sessions.userId, colleague.id))).toHaveLength(1);
    const page = await fetch(server.url + "/faq", { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
  });
});

describe("account pre-hijack: signing up a colleague's address with the attacker's password", () => {
  const victimEmail = "vitima-prehijack@b1.example.com";
  const attackerPassword = "Senha@Atac1";
  const victimPassword = "Senha@Vitima2";
  let firstLink = "";

  it("the colleague opening the confirmation link does not activate the attacker's password", async () => {
    expect((await signUp(victimEmail, attackerPassword)).status).toBe(201);
    firstLink = await waitForLink(outbox, victimEmail, "/api/auth/confirm");
    const opened = await fetch(local(firstLink), { redirect: "manual" });
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toMatch(/^\/auth\?mode=confirm&token=[a-z2-7]{32}$/);
    // She does not know the attacker's password, so she cannot finish the confirmation with it.
    const guess = await post("/api/auth/confirm", { token: new URL(firstLink).searchParams.get("token"), password: victimPassword });
    expect(guess.status).toBe(401);
    expect(await isConfirmed(victimEmail)).toBe(false);
    expect((await signIn(victimEmail, attackerPassword)).status).not.toBe(200);
  });

  it("her own sign-up answers like the first, discards the attacker's password and mails her a set-password link", async () => {
    const before = readMails(outbox, victimEmail).length;
    expect((await signUp(victimEmail, victimPassword)).status).toBe(201);
    const link = await waitForLink(outbox, victimEmail, "mode=update-password", 10_000, before);
    // The attacker's first link and password are both dead now.
    const late = await post("/api/auth/confirm", { token: new URL(firstLink).searchParams.get("token"), password: attackerPassword });
    expect(late.status).toBe(400);
    expect((await signIn(victimEmail, attackerPassword)).status).toBe(401);
    // Nor does any fixed password open an account whose password was discarded.
    expect((await signIn(victimEmail, "Senha@Inexistente1")).status).toBe(401);

    const token = new URL(link).searchParams.get("token")!;
    const set = await post("/api/auth/update-password", { token, password: victimPassword, confirmPassword: victimPassword });
    expect(set.status).toBe(200);
    expect(await isConfirmed(victimEmail)).toBe(true);
    expect((await signIn(victimEmail, attackerPassword)).status).toBe(401);
    expect((await signIn(victimEmail, victimPassword)).status).toBe(200);
  });
});

describe("phishing text in the sign-up name", () => {
  it("a name typed at sign-up never reaches the mail", async () => {
    const email = "nome-phishing@b1.example.com";
    const fullName = "Ganhe um prêmio em https://phish.example/premio";
    expect((await signUp(email, "Senha@Nome1", fullName)).status).toBe(201);
    await waitForLink(outbox, email, "/api/auth/confirm");
    const body = decodeQuotedPrintable(readMails(outbox, email)[0]!);
    expect(body).not.toContain("phish.example");
    expect(body).not.toContain("Ganhe");
    expect(body).toContain("Olá!");
  });
});
