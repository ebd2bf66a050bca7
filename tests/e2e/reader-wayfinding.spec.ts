import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

// A reader on a long page: the contents list, heading links, previous/next along the methodology,
// stage links, and filters kept in the address.

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

function pagination(page: Page) {
  return page.getByRole("navigation", { name: "Anterior e próxima página" });
}

test("wide screens: 'Nesta página' lists the headings beside the text and stays in view while reading", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/etapas-processo");
  const toc = page.getByRole("navigation", { name: "Nesta página" });
  await expect(toc).toBeVisible();
  for (const name of ["Linha do tempo", "Ideação", "Sustentação", "Caso real: novo meio de pagamento"])
    await expect(toc.getByRole("link", { name, exact: true })).toBeVisible();
  await toc.getByRole("link", { name: "Go Live", exact: true }).click();
  await expect(page).toHaveURL(/\/etapas-processo#etapa-go-live$/);
  await expect(page.locator("#etapa-go-live").getByRole("heading", { name: "Go Live" })).toBeInViewport();
  // Sticky: still on screen after scrolling far down, beside (not above) the text.
  await page.mouse.wheel(0, 6000);
  await expect(toc).toBeInViewport();
  const tocBox = (await toc.boundingBox())!;
  const headingBox = (await page.getByRole("heading", { name: "Ferramentas recomendadas" }).boundingBox())!;
  expect(tocBox.x).toBeGreaterThan(headingBox.x + headingBox.width / 2);
});

test("phones: 'Nesta página' is a collapsed block that opens, leads to the section and closes", async ({ page, loginAs }) => {
  await page.setViewportSize(PHONE);
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const block = page.locator("details", { has: page.locator("summary", { hasText: "Nesta página" }) });
  await expect(block).toBeVisible();
  const link = block.getByRole("link", { name: "Ferramentas digitais recomendadas" });
  await expect(link).toBeHidden();
  await block.locator("summary").click();
  await link.click();
  await expect(page).toHaveURL(/\/templates#ferramentas-digitais$/);
  await expect(link).toBeHidden();
  await expect(page.getByRole("heading", { name: "Ferramentas digitais recomendadas" })).toBeInViewport();
});

test("every MDX page lists its own headings", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/sobre-b1");
  const toc = page.getByRole("navigation", { name: "Nesta página" });
  for (const name of ["Quem somos", "Como atuamos", "Nosso papel no futuro"]) await expect(toc.getByRole("link", { name })).toBeVisible();
});

test("a heading's link copies the section's address and works as a plain anchor; keyboard reaches it", async ({
  page,
  loginAs,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const anchor = page.getByRole("link", { name: "Copiar link para esta seção: Ferramentas digitais recomendadas" });
  await expect(anchor).toHaveAttribute("href", "#ferramentas-digitais");
  await anchor.focus();
  await expect(anchor).toBeFocused();
  expect(await anchor.evaluate((element) => getComputedStyle(element).opacity)).toBe("1");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/templates#ferramentas-digitais$/);
  await expect(page.getByRole("status").filter({ hasText: "Link copiado" })).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/templates#ferramentas-digitais$/);

  // MDX headings get the same link, with a Portuguese slug.
  await page.goto("/sobre-b1");
  await expect(page.getByRole("link", { name: "Copiar link para esta seção: Quem somos" })).toHaveAttribute("href", "#quem-somos");
});

test("'Anterior / Próxima' follow the methodology's order and skip pages the reader may not open", async ({ page, loginAs, context }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/etapas-processo");
  await expect(pagination(page).getByRole("link", { name: /Anterior.*Os 5 Ps/ })).toHaveAttribute("href", "/5ps");
  await pagination(page)
    .getByRole("link", { name: /Próxima.*Templates & Ferramentas/ })
    .click();
  await expect(page).toHaveURL(/\/templates$/);

  // The committee follows Sementezz, but a visualizador may not open it: no link, and its title is not sent.
  await page.goto("/sementezz");
  await expect(pagination(page).getByRole("link", { name: /Anterior.*Sobre a B1/ })).toBeVisible();
  await expect(pagination(page).getByRole("link", { name: /Próxima/ })).toHaveCount(0);
  expect(await page.content()).not.toContain("Comitê de IA");

  await context.clearCookies();
  await loginAs(["lider"]);
  await page.goto("/sementezz");
  await expect(pagination(page).getByRole("link", { name: /Próxima.*Comitê de IA/ })).toHaveAttribute("href", "/comite-ia");
});

test("the stage chips and each stage's 'Avançar para' lead to that stage", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/home-metodologia");
  await page.getByRole("link", { name: "3. Planejamento" }).click();
  await expect(page).toHaveURL(/\/etapas-processo#etapa-planejamento$/);
  await expect(page.locator("#etapa-planejamento").getByRole("heading", { name: "Planejamento" })).toBeInViewport();
  await page.getByRole("link", { name: "Avançar para: Pré-execução" }).click();
  await expect(page).toHaveURL(/#etapa-pre-execucao$/);
  await expect(page.locator("#etapa-pre-execucao").getByRole("heading", { name: "Pré-execução" })).toBeInViewport();
});

test("the templates filter lives in the address: Back from a template and a shared link restore it", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const search = await hydrated(page.getByRole("searchbox", { name: "Buscar templates" }));
  await search.fill("playbook");
  await page.getByRole("combobox", { name: "Filtrar por etapa" }).selectOption("playbooks");
  await expect(page).toHaveURL(/\/templates\?busca=playbook&etapa=playbooks$/);
  await page.getByRole("link", { name: "Abrir" }).first().click();
  await expect(page).toHaveURL(/\/playbook-produtos$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/templates\?busca=playbook&etapa=playbooks$/);
  await expect(page.getByRole("searchbox", { name: "Buscar templates" })).toHaveValue("playbook");
  await expect(page.getByRole("combobox", { name: "Filtrar por etapa" })).toHaveValue("playbooks");
  await expect(page.getByText(/^\d+ de \d+ templates$/)).not.toHaveText(/^(\d+) de \1 templates$/);

  await page.goto("/templates?busca=canvas");
  await expect(page.getByRole("searchbox", { name: "Buscar templates" })).toHaveValue("canvas");
  await expect(page.getByRole("heading", { name: "Canvas de Ideação" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Mapa de Empatia" })).toHaveCount(0);
});

test("the FAQ and glossary searches live in the address", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  await (await hydrated(page.getByRole("searchbox", { name: "Buscar perguntas" }))).fill("kpi");
  await expect(page).toHaveURL(/\/faq\?busca=kpi$/);
  await page.goto("/faq?busca=zzzz");
  await expect(page.getByText("Nenhuma pergunta encontrada")).toBeVisible();

  await page.goto("/glossario?busca=canvas");
  await expect(page.getByRole("searchbox", { name: "Buscar termo ou definição" })).toHaveValue("canvas");
  await expect(page.getByRole("heading", { name: "Canvas", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "MVP", exact: true })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Buscar termo ou definição" }).fill("");
  await page.getByRole("button", { name: /^Gestão/ }).click();
  await expect(page).toHaveURL(/\/glossario\?categoria=Gest%C3%A3o$/);
  await page.reload();
  await expect(page.getByRole("button", { name: /^Gestão/ })).toHaveAttribute("aria-pressed", "true");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contents block and the heading links still lead to their sections", async ({ page, loginAs }) => {
    await page.setViewportSize(PHONE);
    await loginAs(["visualizador"]);
    await page.goto("/etapas-processo");
    const block = page.locator("details", { has: page.locator("summary", { hasText: "Nesta página" }) });
    await block.locator("summary").click();
    await block.getByRole("link", { name: "Discovery", exact: true }).click();
    await expect(page).toHaveURL(/#etapa-discovery$/);
    await page.getByRole("link", { name: "Copiar link para esta seção: Caso real: novo meio de pagamento" }).click();
    await expect(page).toHaveURL(/#caso-real$/);
    await expect(page.locator("#caso-real").getByRole("heading", { level: 2 })).toBeInViewport();
  });
});

test("'Esta página ajudou?' appears below 'Anterior / Próxima' and never moves them", async ({ page, loginAs }) => {
  await page.setViewportSize(WIDE);
  await loginAs(["visualizador"]);
  await page.goto("/etapas-processo");
  const next = pagination(page).getByRole("link", { name: /Próxima/ });
  const documentTop = () => next.evaluate((link) => link.getBoundingClientRect().top + window.scrollY);
  const before = await documentTop();
  // The box is asked for once the end of the page nears, and shows when the server answers.
  await next.scrollIntoViewIfNeeded();
  await expect(page.getByRole("region", { name: "Esta página ajudou?" })).toBeVisible();
  expect(await documentTop()).toBe(before);
});
