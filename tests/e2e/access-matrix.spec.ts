import { expect, test } from "./fixtures";

test("'Quem acessa o quê': the matrix and a user's pages, by keyboard", async ({ page, loginAs, consoleErrors }) => {
  const admin = await loginAs(["admin"]);
  await page.goto("/admin-panel");
  const summary = page.getByText("Quem acessa o quê");
  await summary.focus();
  await page.keyboard.press("Enter");
  const panelRow = page.getByRole("row", { name: /Painel Administrativo/ });
  await expect(panelRow.getByText("Acessa")).toHaveCount(1);
  await expect(panelRow.getByText("Pede login")).toHaveCount(1);
  await page.getByLabel("Buscar usuário por nome ou e-mail").fill(admin.email);
  await page.keyboard.press("Enter");
  await page.getByLabel("Páginas que um usuário pode abrir").selectOption({ label: `${admin.fullName} (${admin.email})` });
  const pages = page.getByRole("list", { name: `Páginas de ${admin.email}` });
  await expect(pages.getByRole("listitem").filter({ hasText: "/admin-panel" })).toContainText("por admin");
  await expect(pages.getByRole("listitem").filter({ hasText: "/faq" })).toContainText("por Qualquer usuário conectado");
  expect(consoleErrors).toEqual([]);
});

test("'Quem acessa o quê' opened before its script arrives still loads the matrix", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/AccessMatrixView\.[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/admin-panel", { waitUntil: "domcontentloaded" });
  await page.getByText("Quem acessa o quê").click();
  await expect(page.getByRole("status").filter({ hasText: "Carregando..." })).toBeVisible();
  release();
  await expect(page.getByRole("row", { name: /Painel Administrativo/ }).getByText("Acessa")).toHaveCount(1);
});
