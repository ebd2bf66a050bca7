import { expect, test } from "./fixtures";

// The sample page content/paginas/exemplo-componentes.mdx (admin only) uses every editor component once.
test.beforeEach(async ({ loginAs }) => {
  await loginAs(["admin"]);
});

test("every MDX component renders and works with the keyboard", async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/exemplo-componentes");
  await expect(page.getByRole("heading", { level: 1, name: "Exemplo de componentes" })).toBeVisible();

  for (const name of ["Informação", "Antes de publicar", "Dica"]) await expect(page.getByRole("complementary", { name })).toBeVisible();
  await expect(page.getByRole("article").locator("ol > li")).toHaveCount(3);

  const cards = page.getByRole("main").getByRole("heading", { level: 3 }).getByRole("link");
  await expect(cards).toHaveText(["Etapas do processo", "Templates", "Glossário"]);

  const tabs = page.getByRole("tablist");
  await expect(tabs.getByRole("tab")).toHaveText(["Visão geral", "Detalhes"]);
  await expect(page.getByRole("tabpanel")).toHaveText(/primeira aba/);
  await tabs.getByRole("tab", { name: "Visão geral" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tabs.getByRole("tab", { name: "Detalhes" })).toBeFocused();
  await expect(tabs.getByRole("tab", { name: "Detalhes" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveText(/segunda aba/);

  await expect(page.getByRole("figure")).toContainText("Uma figura com legenda.");
  await expect(page.getByRole("img", { name: "Logotipo do B1 Method Hub" })).toBeVisible();

  await expect(page.getByRole("link", { name: "Abrir a página de templates" })).toHaveAttribute("href", "/templates");
  const soon = page.getByText("Baixar o modelo");
  await expect(soon).toContainText("Em breve");
  await expect(soon).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByText(/^Atualizado em \d{1,2} de \w+ de \d{4}$/)).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

for (const width of [375, 1280]) {
  test(`the sample page at ${width}px (screenshot artefact)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/exemplo-componentes");
    await expect(page.getByRole("tablist")).toBeVisible();
    await expect(page.getByRole("img", { name: "Logotipo do B1 Method Hub" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/mdx-componentes/exemplo-componentes-${width}.png`, fullPage: true });
  });
}
