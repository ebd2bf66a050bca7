import AxeBuilder from "@axe-core/playwright";
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

test("queries as people type them: a stop-word question, a synonym and a typo with 'Você quis dizer', by keyboard (axe: 0 serious, light and dark)", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/faq");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  const field = dialog.getByRole("combobox", { name: "Buscar no portal" });
  const answered = (query: string) => expect(dialog.locator("[data-search-results]")).toHaveAttribute("data-consulta", query);

  // Every word must match in Pagefind, and "meu" is on one page only: the words that matter still find the page.
  await field.fill("como inscrever meu time no sementezz");
  await answered("como inscrever meu time no sementezz");
  await expect(dialog.getByRole("option").first()).toContainText("Sementezz");

  // A synonym the editors keep in content/busca/sinonimos.yaml: the page says "assistente conversacional".
  await field.fill("chatgpt");
  await answered("chatgpt");
  await expect(dialog.getByRole("option").first()).toContainText("Ferramentas de IA");

  // A one-letter typo: corrected against the reader's own words, said, and one click searches the correction.
  await field.fill("glosario");
  await answered("glosario");
  await expect(dialog.getByRole("option").first()).toContainText("Glossário");
  const suggestion = dialog.getByRole("button", { name: "glossário" });
  await expect(dialog.getByText("Você quis dizer")).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include("[data-search-dialog]").withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }
  await suggestion.focus();
  await page.keyboard.press("Enter");
  await answered("glossário");
  await expect(field).toHaveValue("glossário");
  await expect(field).toBeFocused();
  await expect(dialog.getByText("Você quis dizer")).toHaveCount(0);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/glossario/);

  // Nothing meaningful: "Nenhum resultado", and no page shown for one-letter look-alikes.
  await page.keyboard.press("Control+k");
  await field.fill("okrx zzqw");
  await answered("okrx zzqw");
  await expect(dialog.getByText("Nenhum resultado encontrado")).toBeVisible();
  await expect(dialog.getByRole("option")).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a trail phase found by search opens at that phase", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  // A question of the trail's sixth phase: the trail shows one phase at a time, the index holds them all.
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill("guia de conciliação");
  await expect(dialog.locator("[data-search-results]")).toHaveAttribute("data-consulta", "guia de conciliação");
  const result = dialog.getByRole("option", { name: /Trilha Interativa/ }).first();
  await expect(result).toHaveAttribute("href", /\/trilha-interativa#fase-/);
  await result.click();
  await expect(page.locator("#trail-phase-title")).not.toHaveText("Ideação");
});
