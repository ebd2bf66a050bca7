import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

test("header menus close on Escape (focus back on their button) and when the focus leaves them", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/faq");
  const account = page.locator('details[data-menu="account"]');
  const summary = account.locator("summary");
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(account).toHaveAttribute("open", "");
  await page.keyboard.press("Tab");
  await expect(account.getByRole("link", { name: "Painel Admin" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(account).not.toHaveAttribute("open", "");
  await expect(summary).toBeFocused();

  const more = page.locator('details[data-menu="more"]');
  await more.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(more).toHaveAttribute("open", "");
  await page.locator("main#conteudo").getByRole("link").first().focus();
  await expect(more).not.toHaveAttribute("open", "");
});

test("search tells screen readers the highlighted result, and one Escape closes it", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  const field = dialog.getByRole("combobox", { name: "Buscar no portal" });
  await field.fill("wireframe");
  await expect(dialog.getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  const activeId = await field.getAttribute("aria-activedescendant");
  expect(activeId).toBeTruthy();
  await expect(page.locator(`#${activeId}`)).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(`#${activeId}`)).toHaveAttribute("role", "option");
  await expect(field).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("after a delete in the admin panel the focus lands on the list's summary", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  const doomed = await createTestUser(e2eDb(), ["visualizador"], "excluir-foco");
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  await page.getByPlaceholder("Buscar usuários...").fill(doomed.email);
  await page.getByRole("button", { name: `Excluir ${doomed.email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Excluir", exact: true }).press("Enter");
  await expect(page.getByText("Usuário excluído com sucesso")).toBeVisible();
  await expect(page.getByText(/^0 usuários$/)).toBeFocused();
});

test("glossary categories filter as a labelled toggle group; the RACI table scrolls by keyboard at 375 px", async ({ page, loginAs }) => {
  await loginAs(["lider"]);
  await page.goto("/glossario");
  const group = page.getByRole("group", { name: "Filtrar por categoria" });
  const metrics = await hydrated(group.getByRole("button", { name: /^Métricas \(\d+\)$/ }));
  await metrics.click();
  await expect(metrics).toHaveAttribute("aria-pressed", "true");
  await expect(group.getByRole("button", { name: /^Todos/ })).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("heading", { name: "KPI", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "MVP", exact: true })).toHaveCount(0);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/comite-ia");
  const raci = page.getByRole("region", { name: /Modelo RACI/ });
  await raci.focus();
  await expect(raci).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => raci.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

test("the floating glossary button sits in a landmark and covers no content at 1280 px", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  const button = page.getByRole("complementary", { name: "Atalho para o glossário" }).getByRole("link");
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  const content = (await page.locator("main#conteudo .max-w-6xl").first().boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(content.x + content.width);
});

test("/5ps headings never skip a level", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/5ps");
  const levels = await page.locator("h1, h2, h3, h4, h5, h6").evaluateAll((all) => all.map((h) => Number(h.tagName[1])));
  expect(levels.length).toBeGreaterThan(5);
  levels.forEach((level, index) => {
    if (index > 0) expect(level, `cabeçalho ${index}`).toBeLessThanOrEqual(levels[index - 1]! + 1);
  });
});
