import { test, expect } from "./fixtures";

test("an anonymous visitor of /templates lands on the sign-in page", async ({ page }) => {
  await page.goto("/templates");
  await expect(page).toHaveURL(/\/auth\?next=%2Ftemplates$/);
});

test("a visualizador sees the filtered navigation, without Comitê IA or Painel Admin", async ({ page, loginAs, consoleErrors }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const nav = page.getByRole("navigation", { name: "Principal" });
  for (const label of [
    "Home",
    "Metodologia B1",
    "Os 5 Ps",
    "Etapas do Processo",
    "Templates & Ferramentas",
    "FAQ",
    "Glossário",
    "Contato",
  ]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole("link", { name: "Comitê IA" })).toHaveCount(0);
  await page
    .getByRole("button", { name: "Conta" })
    .or(page.getByLabel("Conta", { exact: true }))
    .first()
    .click();
  await expect(page.getByRole("button", { name: "Sair" })).toBeVisible();
  await expect(page.getByText("Painel Admin")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a lider sees Comitê IA and opens it; the mobile menu closes on navigation", async ({ page, loginAs }) => {
  await loginAs(["lider"]);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/faq");
  await page.getByLabel("Abrir menu").click();
  const menu = page.getByRole("navigation", { name: "Menu móvel" });
  await menu.getByRole("link", { name: "Comitê IA" }).click();
  await expect(page).toHaveURL(/\/comite-ia$/);
  await expect(page.getByRole("navigation", { name: "Menu móvel" })).toBeHidden();
});

test("Sair ends the session and protected pages ask for sign-in again", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  await page.getByLabel("Conta", { exact: true }).click();
  await page.getByRole("button", { name: "Sair" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Entrar" }).first()).toBeVisible();
  await page.goto("/faq");
  await expect(page).toHaveURL(/\/auth\?next=%2Ffaq$/);
});
