import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

test.beforeEach(async ({ loginAs, page }) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("the methodology pages render their blocks", async ({ page, consoleErrors }) => {
  await page.goto("/");
  for (const heading of ["Sobre a B1", "Nossa abordagem", "Nossos valores", "Clientes e parceiros", "Programa Sementezz"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  await expect(page.getByText("Acesso Restrito")).toHaveCount(0);
  // A visualizador may not open /comite-ia, so no card or footer link leads there.
  await expect(page.getByRole("link", { name: /Comitê de IA/ })).toHaveCount(0);

  await page.goto("/home-metodologia");
  await expect(page.getByRole("heading", { name: "O que é a Metodologia B1" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Sprint de 5 dias/ })).toBeVisible();

  await page.goto("/etapas-processo");
  await expect(page.getByRole("heading", { name: "Etapas do Processo B1" })).toBeVisible();
  await expect(page.locator("#linha-do-tempo ol > li")).toHaveCount(8);
  await expect(page.getByText("Reiniciar ciclo de evolução")).toHaveCount(1);
  await expect(page.getByText("Review de métricas e KPIs", { exact: true })).toHaveCount(8);
  await expect(page.getByRole("button", { name: /Inteligência Artificial/ })).toHaveCount(1);
  await expect(page.locator("#ferramentas-recomendadas li")).toHaveCount(18);
  await expect(page.getByRole("link", { name: "Acessar trilha de projeto" })).toHaveAttribute("href", "/trilha-interativa");
  await expect(page.locator("#caso-real article")).toHaveCount(24);

  await page.goto("/playbook-produtos");
  await expect(page.getByRole("link", { name: "Ler tudo" }).or(page.getByRole("button", { name: "Ler tudo" }))).toHaveCount(22);
  await expect(page.getByRole("button", { name: "Em breve - Em construção" })).toHaveCount(14);
  await page.getByRole("navigation", { name: "Seções do playbook" }).getByRole("link", { name: "Execução" }).click();
  await expect(page).toHaveURL(/#execucao$/);
  await expect(page.getByText("atualizado trimestralmente")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("the templates filter narrows, combines with the category and shows the empty state", async ({ page, consoleErrors }) => {
  await page.goto("/templates");
  await expect(page.getByText("44 de 44 templates")).toBeVisible();
  await (await hydrated(page.getByPlaceholder("Buscar templates..."))).fill("canvas");
  await expect(page.getByText(/^\d+ de 44 templates$/)).not.toHaveText("44 de 44 templates");
  const canvasCount = await page.locator("#catalogo li").count();
  expect(canvasCount).toBeGreaterThan(1);
  await page.getByRole("combobox", { name: "Filtrar por etapa" }).selectOption({ label: "Execução" });
  await expect(page.locator("#catalogo li")).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "Canvas de MVP" })).toBeVisible();
  await page.getByPlaceholder("Buscar templates...").fill("xyz inexistente");
  await expect(page.getByText("Nenhum template encontrado")).toBeVisible();
  await expect(page.getByText("Tente ajustar os filtros ou termo de busca")).toBeVisible();
  await expect(page.getByRole("link", { name: "Solicitar Template Customizado" })).toHaveAttribute("href", "/contato");
  expect(consoleErrors).toEqual([]);
});

test("a missing download link logs instead of navigating; the internal one navigates", async ({ page }) => {
  const logs: string[] = [];
  page.on("console", (message) => logs.push(message.text()));
  await page.goto("/templates");
  await (await hydrated(page.getByPlaceholder("Buscar templates..."))).fill("Lean Canvas");
  // aria-disabled (not disabled) so that trying it can still log.
  await page.locator("#catalogo li").first().getByRole("button", { name: "Baixar" }).click({ force: true });
  await expect.poll(() => logs).toContain("Link não encontrado para: Lean Canvas");
  await page.getByPlaceholder("Buscar templates...").fill("Playbook de Produtos");
  await page.locator("#catalogo").getByRole("link", { name: "Abrir" }).click();
  await expect(page).toHaveURL(/\/playbook-produtos$/);
});

test("learn-more dialogs open and close with the keyboard", async ({ page }) => {
  await page.goto("/etapas-processo");
  const trigger = await hydrated(page.locator("#etapa-ideacao").getByRole("button", { name: "Saiba mais" }).first());
  await trigger.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Lean Canvas" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Quadro de uma página");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();

  await (await hydrated(page.getByRole("button", { name: /Inteligência Artificial/ }))).click();
  await expect(page.getByRole("dialog", { name: "Inteligência Artificial" }).locator("li")).toHaveCount(4);
  await page.keyboard.press("Escape");
});

test("pillar tabs switch between overview and detailed roles", async ({ page }) => {
  await page.goto("/5ps#papeis");
  const overview = page.getByRole("tab", { name: "Visão Geral" });
  await expect(overview).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Matriz RACI" })).toBeVisible();
  await hydrated(overview);
  await page.getByRole("tab", { name: "Papéis Detalhados" }).click();
  await expect(page.getByText("Product Owner", { exact: true })).toBeVisible();
  await expect(page.getByText("Cliente Interno/Solicitante")).toBeVisible();
  // WAI-ARIA tabs: the arrow keys move between tabs and select them.
  await page.keyboard.press("ArrowLeft");
  await expect(overview).toBeFocused();
  await expect(overview).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Matriz RACI" })).toBeVisible();
  for (const anchor of ["principios", "processos", "papeis", "performance", "pessoas"])
    await expect(page.locator(`#${anchor}`)).toHaveCount(1);
});

test("the AI tools table shows from lg up, expandable single-open cards below", async ({ page, consoleErrors }) => {
  await page.goto("/ferramentas-ia");
  await expect(page.getByRole("link", { name: "Voltar para Templates" })).toHaveAttribute("href", "/templates");
  await expect(page.getByTestId("ai-table")).toBeVisible();
  await expect(page.getByTestId("ai-cards")).toBeHidden();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId("ai-table")).toBeHidden();
  const cards = page.getByTestId("ai-cards");
  await expect(cards).toBeVisible();
  // Native <details name>: no island, works before any script.
  await expect(page.locator("astro-island")).toHaveCount(0);
  const card = (name: RegExp) => cards.locator("summary", { hasText: name });
  await card(/Assistente de código/).click();
  await expect(cards.getByText("Produtividade no desenvolvimento")).toBeVisible();
  await card(/Gerador de protótipos/).click();
  await expect(cards.getByText("Produtividade no desenvolvimento")).toBeHidden();
  await card(/Gerador de protótipos/).press("Enter");
  await expect(cards.getByText("Explorar alternativas")).toBeHidden();
  await expect(page.getByRole("link", { name: /Quero implementar IA/ })).toHaveAttribute(
    "href",
    /subject=Interesse%20em%20Implementa%C3%A7%C3%A3o%20de%20IA/,
  );
  expect(consoleErrors).toEqual([]);
});
