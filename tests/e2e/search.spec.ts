import { expect, test } from "./fixtures";

test("Ctrl+K opens the search; a known term finds its page and the result opens it", async ({ page, loginAs, consoleErrors }) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/faq");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill("wireframe");
  const first = dialog.getByRole("option").first();
  await expect(first).toContainText("Glossário");
  await expect(first.locator("mark").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/glossario/);
  expect(consoleErrors).toEqual([]);
});

test("search shows an empty state, and never a page the user may not open", async ({ page, loginAs, context }) => {
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  await page.getByRole("button", { name: "Buscar no portal" }).click();
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill("xyzkwq");
  await expect(dialog.getByText("Nenhum resultado encontrado")).toBeVisible();
  // A phrase that exists only on /comite-ia: whatever fuzzy matches come back, none is from that page.
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill("espinha dorsal");
  await expect(dialog.getByText(/resultado/)).toBeVisible();
  await expect(dialog.getByText("Buscando...")).toHaveCount(0);
  await expect(dialog.getByRole("option", { name: /Comitê de IA/ })).toHaveCount(0);
  await expect(dialog.getByText(/Espinha dorsal/i)).toHaveCount(0);

  await context.clearCookies();
  await loginAs(["lider"]);
  await page.goto("/templates");
  await page.getByRole("button", { name: "Buscar no portal" }).click();
  await page.getByRole("dialog", { name: "Buscar no portal" }).getByRole("combobox", { name: "Buscar no portal" }).fill("espinha dorsal");
  await expect(page.getByRole("option").first()).toContainText("Comitê de IA");
});
