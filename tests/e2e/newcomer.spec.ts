import { spawnSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { freePort } from "../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../support/server";
import { expect, test } from "./fixtures";

// A newcomer's portal: the built server with the default configuration (no PUBLIC_URL), the first
// admin made with the user CLI as the README says, then signing in at the address the server printed.
const admin = { email: "primeira.admin@b1.example.com", password: "Jabuticaba@Azul7" };

function createAdminWithCli(portal: RunningServer) {
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/user.ts",
      "add",
      "--email",
      admin.email,
      "--name",
      "Primeira Admin",
      "--password",
      admin.password,
      "--role",
      "admin",
    ],
    { env: { ...process.env, ...portal.databaseEnv, AUTH_ALLOWED_DOMAINS: "b1.example.com" }, encoding: "utf8", timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
}

function printedAddress(portal: RunningServer): string {
  return /B1 Method Hub no ar em (\S+)/.exec(portal.output())![1]!;
}

async function signIn(page: Page, address: string) {
  await page.goto(`${address}/auth`);
  await page.getByLabel("E-mail").fill(admin.email);
  await page.getByLabel("Senha", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

test.describe("a newcomer with the default configuration", () => {
  let portal: RunningServer;
  test.beforeAll(async () => {
    portal = await startBuiltServer({ PUBLIC_URL: undefined });
    createAdminWithCli(portal);
  });
  test.afterAll(() => portal?.stop());

  test("signs in at the address the server printed, and at the other loopback spelling of its port", async ({ browser }) => {
    const printed = printedAddress(portal);
    const port = new URL(portal.url).port;
    expect(printed).toBe(`http://localhost:${port}`);
    for (const address of [printed, `http://127.0.0.1:${port}`]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, address);
      await expect(page, address).toHaveURL(`${address}/`);
      await expect(page.getByLabel("Conta", { exact: true })).toBeVisible();
      await page.goto(`${address}/admin-panel`);
      await expect(page).toHaveURL(`${address}/admin-panel`);
      await context.close();
    }
  });
});

test.describe("a portal whose PUBLIC_URL names the other spelling", () => {
  let portal: RunningServer;
  let port: number;
  test.beforeAll(async () => {
    port = await freePort();
    portal = await startBuiltServer({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    createAdminWithCli(portal);
  });
  test.afterAll(() => portal?.stop());

  test("signing in at 127.0.0.1 says which address to open, and that address works", async ({ page }) => {
    await signIn(page, `http://127.0.0.1:${port}`);
    await expect(
      page.getByText(`Origem da requisição não permitida: abra o portal em http://localhost:${port} ou ajuste PUBLIC_URL.`),
    ).toBeVisible();
    await expect(page).toHaveURL(`http://127.0.0.1:${port}/auth`);
    await signIn(page, `http://localhost:${port}`);
    await expect(page).toHaveURL(`http://localhost:${port}/`);
  });
});
