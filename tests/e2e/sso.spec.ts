import { eq } from "drizzle-orm";
import { auditLogs, roles, userRoles, users } from "../../db/schema/index";
import { freePort, startTestProvider, TEST_CLIENT, type TestProvider } from "../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../support/server";
import { expect, test } from "./fixtures";

// Each portal here is its own built server with the OIDC settings; the provider is a real oidc-provider on loopback.
const IDENTITIES = {
  ana: { email: "ana.e2e@b1.example.com", email_verified: true, name: "Ana Navegador", groups: ["grupo-ti"] },
  rui: { email: "rui.e2e@b1.example.com", email_verified: true, name: "Rui Líder", groups: ["lideres"] },
  intrusa: { email: "intrusa@fora.example.org", email_verified: true, name: "Intrusa", groups: ["grupo-ti"] },
};

async function startSsoPortal(extra: Record<string, string> = {}): Promise<{ portal: RunningServer; provider: TestProvider }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const provider = await startTestProvider(url, IDENTITIES);
  const portal = await startBuiltServer({
    PORT: String(port),
    PUBLIC_URL: url,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_ROLE_MAP: "grupo-ti:admin,lideres:lider",
    ...extra,
  });
  return { portal, provider };
}

test.describe("corporate sign-in in Chromium", () => {
  let portal: RunningServer;
  let provider: TestProvider;

  test.beforeAll(async () => {
    ({ portal, provider } = await startSsoPortal());
  });
  test.afterAll(async () => {
    await portal?.stop();
    await provider?.stop();
  });
  test.beforeEach(async ({ context }) => {
    // The provider's development login page imports a web font; nothing leaves this machine.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  });

  async function signInAtProvider(page: import("@playwright/test").Page, login: string) {
    await page.getByRole("link", { name: "Entrar com a conta corporativa" }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("qualquer");
    await page.getByRole("button", { name: "Sign-in" }).click();
  }

  test("the button, the provider's login, the callback, landing on / signed in with the mapped role, the audit rows", async ({ page }) => {
    // Errors on the portal's pages only (the provider's page fails to load its blocked web font).
    const portalErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && page.url().startsWith(portal.url)) portalErrors.push(message.text());
    });
    page.on("pageerror", (error) => portalErrors.push(error.message));
    await page.goto(`${portal.url}/auth`);
    const button = page.getByRole("link", { name: "Entrar com a conta corporativa" });
    await expect(button).toBeVisible();
    // Above the password form, and reachable first by keyboard.
    const buttonBox = (await button.boundingBox())!;
    const emailBox = (await page.getByLabel("E-mail").boundingBox())!;
    expect(buttonBox.y).toBeLessThan(emailBox.y);

    await signInAtProvider(page, "ana");
    await expect(page).toHaveURL(`${portal.url}/`);
    await page.getByLabel("Conta", { exact: true }).click();
    await expect(page.getByRole("link", { name: "Painel Admin" })).toBeVisible();
    await page.goto(`${portal.url}/admin-panel`);
    await expect(page).toHaveURL(`${portal.url}/admin-panel`);

    const user = (await portal.db.select().from(users).where(eq(users.email, IDENTITIES.ana.email)))[0]!;
    expect(user.fullName).toBe("Ana Navegador");
    const held = await portal.db
      .select({ name: roles.name, source: userRoles.source })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, user.id));
    expect(held).toEqual([{ name: "admin", source: "oidc" }]);
    const actions = (
      await portal.db
        .select({ action: auditLogs.actionType, result: auditLogs.result })
        .from(auditLogs)
        .where(eq(auditLogs.userId, user.id))
    ).map((row) => `${row.action}:${row.result}`);
    expect(actions).toEqual(expect.arrayContaining(["sso_roles_updated:success", "sso_login_success:success"]));

    // The audit log shows the new actions with their Portuguese labels.
    await page.goto(`${portal.url}/audit-logs`);
    await expect(page.getByRole("cell", { name: "Login SSO Realizado" }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "SSO: Perfis Atualizados" }).first()).toBeVisible();
    expect(portalErrors).toEqual([]);
  });

  test("a leader lands on the page asked for before signing in", async ({ page }) => {
    await page.goto(`${portal.url}/comite-ia`);
    await expect(page).toHaveURL(`${portal.url}/auth?next=%2Fcomite-ia`);
    await signInAtProvider(page, "rui");
    await expect(page).toHaveURL(`${portal.url}/comite-ia`);
  });

  test("a user of an unauthorised domain is refused with a clear message on /auth", async ({ page }) => {
    await page.goto(`${portal.url}/auth`);
    await signInAtProvider(page, "intrusa");
    await expect(page).toHaveURL(`${portal.url}/auth?sso_error=domain`);
    await expect(page.getByRole("alert").filter({ hasText: "domínio não autorizado" })).toBeVisible();
    expect((await portal.db.select().from(users).where(eq(users.email, IDENTITIES.intrusa.email)))[0]!).toBeUndefined();
  });

  test("a state that does not match this browser's is refused with a clear message", async ({ page, context }) => {
    await page.goto(`${portal.url}/auth`);
    await page.getByRole("link", { name: "Entrar com a conta corporativa" }).click();
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
    const kept = (await context.cookies(`${portal.url}/api/auth/oidc/callback`)).find((cookie) => cookie.name === "b1_oidc_state")!;
    await context.addCookies([{ ...kept, value: kept.value.replace(/^./, (c) => (c === "a" ? "b" : "a")) }]);
    await page.locator('input[name="login"]').fill("ana");
    await page.locator('input[name="password"]').fill("qualquer");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await expect(page).toHaveURL(`${portal.url}/auth?sso_error=state`);
    await expect(page.getByRole("alert").filter({ hasText: "expirou ou não foi iniciado" })).toBeVisible();
    await expect(page.getByLabel("Conta", { exact: true })).toHaveCount(0);
  });
});

test.describe("AUTH_PASSWORD=false in Chromium", () => {
  let portal: RunningServer;
  let provider: TestProvider;

  test.beforeAll(async () => {
    ({ portal, provider } = await startSsoPortal({ AUTH_PASSWORD: "false" }));
  });
  test.afterAll(async () => {
    await portal?.stop();
    await provider?.stop();
  });

  test("the password form is gone and its endpoint answers 403", async ({ page, request }) => {
    await page.goto(`${portal.url}/auth`);
    await expect(page.getByRole("heading", { name: "B1 Method Hub" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Entrar com a conta corporativa" })).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Entrar" })).toHaveCount(0);
    const response = await request.post(`${portal.url}/api/auth/sign-in`, {
      headers: { origin: portal.url },
      data: { email: "alguem@b1.example.com", password: "Senha@Forte1" },
    });
    expect(response.status()).toBe(403);
    expect((await response.json()).error).toContain("desativado");
  });
});
