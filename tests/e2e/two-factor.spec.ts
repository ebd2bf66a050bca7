import fs from "node:fs";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { auditLogs } from "../../db/schema/index";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { startBuiltServer, type RunningServer } from "../support/server";
import { createTestUser, type TestUser } from "../support/users";
import { expect, test } from "./fixtures";

// Its own portal: two-factor needs TWO_FACTOR_KEY, and with it admins must enrol (the default).
const TWO_FACTOR_KEY = "a".repeat(64);

/** The authenticator app: the code of the time-step `offset` steps from now, from the key the page showed. */
function codeFor(manualKey: string, offset = 0): string {
  const key = decodeBase32IgnorePadding(manualKey.replace(/\s/g, ""));
  return generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + offset), 6);
}

test.describe.serial("two-factor sign-in in Chromium", () => {
  let portal: RunningServer;
  let admin: TestUser;
  let manualKey = "";
  let recoveryCodes: string[] = [];

  test.beforeAll(async () => {
    portal = await startBuiltServer({ TWO_FACTOR_KEY });
    admin = await createTestUser(portal.db, ["admin"]);
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  async function signInWithPassword(page: Page) {
    await page.goto(`${portal.url}/auth`);
    await page.getByLabel("E-mail").fill(admin.email);
    await page.getByLabel("Senha", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(`${portal.url}/dois-fatores`);
  }

  async function signOut(page: Page) {
    await page.getByLabel("Conta", { exact: true }).click();
    await page.getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);
  }

  test("an admin without two-factor is led to enrol, then enrols with the key shown", async ({ page, context }) => {
    await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: portal.url, httpOnly: true, sameSite: "Lax" }]);
    await page.goto(`${portal.url}/admin-panel`);
    await expect(page).toHaveURL(`${portal.url}/conta/dois-fatores?next=%2Fadmin-panel`);
    const api = await page.request.get(`${portal.url}/api/admin/users`);
    expect(api.status()).toBe(403);
    expect((await api.json()).code).toBe("two_factor_required");

    await page.getByRole("button", { name: "Ativar verificação em duas etapas" }).click();
    await expect(page.getByRole("img", { name: "QR code da chave de verificação" }).locator("svg")).toBeVisible();
    manualKey = (await page.getByTestId("two-factor-key").textContent())!;
    await page.getByLabel("2. Código de 6 dígitos").fill(codeFor(manualKey));
    await page.getByRole("button", { name: "Confirmar" }).click();
    const codes = page.getByRole("list", { name: "Códigos de recuperação" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    recoveryCodes = await codes.allTextContents();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: portal.url });
    await page.getByRole("button", { name: "Copiar códigos" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Códigos copiados." })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join("\n"));
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar códigos" }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/\.txt$/);
    expect(fs.readFileSync((await file.path())!, "utf8")).toContain(recoveryCodes.join("\n"));
    await page.getByRole("link", { name: "Continuar" }).click();
    await expect(page).toHaveURL(`${portal.url}/admin-panel`);
    await expect(page.getByRole("heading", { name: "Painel Administrativo" })).toBeVisible();
    await signOut(page);
  });

  test("password then code signs in; a wrong code is refused and audited", async ({ page }) => {
    await signInWithPassword(page);
    const right = codeFor(manualKey, 1);
    await page.getByLabel("Código de verificação").fill(String((Number(right) + 1) % 1_000_000).padStart(6, "0"));
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page.getByRole("alert")).toContainText("Código inválido ou expirado");
    await expect(page.getByLabel("Conta", { exact: true })).toHaveCount(0);
    const failures = await portal.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, admin.id), eq(auditLogs.actionType, "two_factor_login_failure")));
    expect(failures).toHaveLength(1);

    await page.getByLabel("Código de verificação").fill(right);
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);
    await expect(page.getByLabel("Conta", { exact: true })).toBeVisible();
    await signOut(page);
  });

  test("a recovery code works once", async ({ page }) => {
    await signInWithPassword(page);
    await page.getByLabel("Código de verificação").fill(recoveryCodes[0]!.toUpperCase());
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page).toHaveURL(`${portal.url}/`);
    await signOut(page);

    await signInWithPassword(page);
    await page.getByLabel("Código de verificação").fill(recoveryCodes[0]!);
    await page.getByRole("button", { name: "Verificar" }).click();
    await expect(page.getByRole("alert")).toContainText("Código inválido ou expirado");
    await expect(page.getByLabel("Conta", { exact: true })).toHaveCount(0);
  });
});
