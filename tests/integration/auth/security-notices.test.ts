import path from "node:path";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeQuotedPrintable, mailSubject, readMails } from "../../support/mail";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

// The owner hears by e-mail when the account's security changes, so a takeover does not go unseen.
const KEY_HEX = "d".repeat(64);
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";
let server: RunningServer;
let outbox: string;

function call(pathname: string, init: { method?: string; cookie?: string; body?: unknown; agent?: string } = {}) {
  return fetch(server.url + pathname, {
    method: init.method ?? "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/json",
      origin: server.url,
      "user-agent": init.agent ?? FIREFOX_LINUX,
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

const signIn = (user: TestUser, agent: string) =>
  call("/api/auth/sign-in", { body: { email: user.email, password: user.password }, agent });

/** Subjects of the messages the owner received so far (waits for the ones sent after an answer). */
async function subjectsFor(email: string, atLeast: number): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  let subjects: string[] = [];
  while (Date.now() < deadline) {
    subjects = readMails(outbox, email).map(mailSubject);
    if (subjects.length >= atLeast) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return subjects;
}

beforeAll(async () => {
  server = await startBuiltServer({ TWO_FACTOR_KEY: KEY_HEX, TWO_FACTOR_REQUIRED_ROLES: "" });
  outbox = path.join(server.dataDir, "outbox");
});
afterAll(() => server?.stop());

describe("security notices to the account's owner", () => {
  it("a sign-in from a device none of the open sessions uses is told by e-mail; a known device is not", async () => {
    // The fixture's own session has no user agent: the first Firefox sign-in is already a new device.
    const user = await createTestUser(server.db, ["visualizador"], "aviso-dispositivo");
    expect((await signIn(user, FIREFOX_LINUX)).status).toBe(200);
    expect((await signIn(user, FIREFOX_LINUX)).status).toBe(200);
    expect((await signIn(user, CHROME_WINDOWS)).status).toBe(200);
    expect(await subjectsFor(user.email, 2)).toEqual([
      "Novo acesso à sua conta do B1 Method Hub",
      "Novo acesso à sua conta do B1 Method Hub",
    ]);
    const bodies = readMails(outbox, user.email).map(decodeQuotedPrintable);
    expect(bodies[0]).toContain("Firefox em Linux");
    expect(bodies[1]).toContain("Chrome em Windows");
    expect(bodies[1]).toContain("/conta/sessoes");
  });

  it("enabling the second factor, and an administrator removing it, are told by e-mail", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "aviso-fator");
    const cookie = `b1_session=${user.token}`;
    const begun = await (await call("/api/conta/dois-fatores", { cookie, body: {} })).json();
    const code = generateHOTP(decodeBase32IgnorePadding(begun.manualKey.replace(/\s/g, "")), BigInt(Math.floor(Date.now() / 30_000)), 6);
    expect((await call("/api/conta/dois-fatores", { method: "PUT", cookie, body: { code } })).status).toBe(200);
    expect(await subjectsFor(user.email, 1)).toContain("Verificação em duas etapas ativada no B1 Method Hub");

    const admin = await createTestUser(server.db, ["admin"], "aviso-admin");
    const reset = await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", cookie: `b1_session=${admin.token}` });
    expect(reset.status).toBe(200);
    expect(await subjectsFor(user.email, 2)).toContain("Verificação em duas etapas removida da sua conta do B1 Method Hub");
  });
});
