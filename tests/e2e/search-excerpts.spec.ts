import { expect, test } from "./fixtures";

// Excerpts are the page's prose: buttons, filters and menus stay out of the index, and words of
// neighbouring blocks never run together. On a phone the dialog never scrolls sideways.
const CONTROL_TEXT = /Baixar|Em breve|Saiba mais|Filtrar por etapa|Ver detalhes|Copiar/;

async function searchFor(page: import("@playwright/test").Page, term: string) {
  await page.getByRole("button", { name: "Buscar no portal" }).click();
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill(term);
  await expect(dialog.getByRole("option").first()).toBeVisible();
  await expect(dialog.getByText("Buscando...")).toHaveCount(0);
  return dialog;
}

for (const term of ["canvas", "ideação", "template"]) {
  test(`excerpts for "${term}" carry no control text and no run-together words (390 px)`, async ({ page, loginAs }) => {
    await loginAs(["lider"]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/faq");
    const dialog = await searchFor(page, term);
    const excerpts = await dialog.getByRole("option").allInnerTexts();
    expect(excerpts.length).toBeGreaterThan(0);
    for (const text of excerpts) {
      expect(text).not.toMatch(CONTROL_TEXT);
      // A lower-case letter glued to a capital one ("IdeaçãoDiscovery") is two blocks' words run together.
      expect(text).not.toMatch(/\p{Ll}\p{Lu}\p{Ll}/u);
    }
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const overflow = await dialog.evaluate((element) =>
      [...element.querySelectorAll("*")].some(
        (child) => child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "visible",
      ),
    );
    expect(overflow).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
}

test("a hit inside the template catalogue leads to that template's card, and its excerpt neither repeats the title nor runs fields together", async ({
  page,
  loginAs,
}) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/faq");
  const dialog = await searchFor(page, "nove blocos");
  // The catalogue's result (another page may rank above it for these words).
  const first = dialog.getByRole("option").filter({ hasText: "Templates & Ferramentas" }).first();
  await expect(first).toHaveAttribute("href", "/templates#template-lean-canvas");
  await expect(first.locator("span").first()).toHaveText("Templates & Ferramentas › Lean Canvas");
  const excerpt = (await first.locator("span").nth(1).innerText()).trim();
  expect(excerpt).toContain("nove blocos");
  expect(excerpt).not.toContain("Lean Canvas");
  // Card fields (stage, format, description, tools) are separate sentences, never glued ("métricas-chave.Ferramentas").
  expect(excerpt).not.toMatch(/\p{L}[.:]?\p{Lu}\p{Ll}/u);
  await first.click();
  await expect(page).toHaveURL(/\/templates#template-lean-canvas$/);
  const card = page.locator("#template-lean-canvas");
  await expect(card).toBeInViewport();
  // The sticky header does not cover the card's title.
  const header = await page.locator("header.sticky").boundingBox();
  await expect(card).toHaveRole("heading");
  const title = await card.boundingBox();
  expect(title!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
});
