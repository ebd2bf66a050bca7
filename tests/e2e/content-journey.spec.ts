import fs from "node:fs";
import { SESSION_COOKIE, createSession } from "../../src/lib/server/sessions/session";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";
import { findRoute } from "../../src/lib/routes";

test("the trail keeps its state across reloads and browsers, completes, and exports PDF and text", async ({
  page,
  browser,
  baseURL,
  loginAs,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const user = await loginAs(["visualizador"]);
  await page.goto("/trilha-interativa");
  const name = await hydrated(page.getByLabel("Nome do projeto"));
  await name.fill("Checkout Ágil");
  await page.getByLabel("Qual problema estamos resolvendo e para quem?").fill("Clientes sem cartão abandonam a compra");
  await page.getByLabel("Marcar esta fase como concluída").check();
  await expect(page.getByText("1 de 8 fases")).toBeVisible();
  await expect(page.getByText("Concluída", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Fase anterior" })).toBeDisabled();

  await page.reload();
  await hydrated(page.getByLabel("Nome do projeto"));
  await expect(page.getByLabel("Nome do projeto")).toHaveValue("Checkout Ágil");
  await expect(page.getByLabel("Qual problema estamos resolvendo e para quem?")).toHaveValue("Clientes sem cartão abandonam a compra");
  await expect(page.getByText("1 de 8 fases")).toBeVisible();

  // Same account in a fresh browser: the trail comes from the server.
  await page.waitForTimeout(700);
  const other = await browser.newContext();
  await other.addCookies([{ name: SESSION_COOKIE, value: (await createSession(e2eDb(), user.id)).token, url: baseURL! }]);
  const second = await other.newPage();
  await second.goto(`${baseURL}/trilha-interativa`);
  await expect(second.getByLabel("Nome do projeto")).toHaveValue("Checkout Ágil");
  await expect(second.getByText("1 de 8 fases")).toBeVisible();
  await other.close();

  // Toggle back and forth, then complete every phase through the side list.
  await page.getByLabel("Marcar esta fase como concluída").uncheck();
  await expect(page.getByText("0 de 8 fases")).toBeVisible();
  const phases = page.getByRole("navigation", { name: "Fases da trilha" }).getByRole("button");
  await expect(phases).toHaveCount(8);
  for (let i = 0; i < 8; i++) {
    await phases.nth(i).click();
    await expect(page.getByText(`Fase ${i + 1} de 8`)).toBeVisible();
    await page.getByLabel("Marcar esta fase como concluída").check();
  }
  await expect(page.getByRole("button", { name: "Próxima fase" })).toBeDisabled();
  await expect(page.getByRole("heading", { name: "Parabéns! Projeto Completo" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Solicitar Mentoria B1" })).toHaveAttribute(
    "href",
    /^mailto:.*subject=Solicita%C3%A7%C3%A3o%20de%20Mentoria%20B1/,
  );

  const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Baixar PDF do projeto" }).click()]);
  expect(pdf.suggestedFilename()).toBe("checkout-agil.pdf");
  expect(
    fs
      .readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
  const [text] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Baixar texto (.txt)" }).click()]);
  expect(text.suggestedFilename()).toBe("checkout-agil.txt");
  const body = fs.readFileSync(await text.path(), "utf8");
  expect(body).toContain("Projeto: Checkout Ágil");
  expect(body).toContain("1. IDEAÇÃO\nStatus: Concluída");
  expect(body).toContain("Resposta: Clientes sem cartão abandonam a compra");
  expect(body.match(/={50}/g)!.length).toBe(9);
  expect(consoleErrors).toEqual([]);
});

test("corrupt browser storage never breaks the trail", async ({ page, loginAs, consoleErrors }) => {
  const user = await loginAs(["visualizador"]);
  await page.addInitScript((owner) => {
    localStorage.setItem(`b1-trilha:${owner}:completed`, "{quebrado");
    localStorage.setItem(`b1-trilha:${owner}:answers`, '{"ideacao":{"0":42}}');
  }, user.id);
  await page.goto("/trilha-interativa");
  await hydrated(page.getByLabel("Nome do projeto"));
  await expect(page.getByText("0 de 8 fases")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("FAQ and glossary search, with their empty states", async ({ page, loginAs, consoleErrors }) => {
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  const faqSearch = await hydrated(page.getByPlaceholder("Buscar perguntas..."));
  const faq = page.getByRole("group", { name: "Perguntas frequentes" });
  await expect(faq.locator("details")).toHaveCount(10);
  await faqSearch.fill("fast track");
  // Native <details>: Chromium exposes <summary> as a disclosure triangle, not a "button" role.
  const question = faq.locator("summary", { hasText: "Quando usar o Fast Track com IA?" });
  await expect(question).toBeVisible();
  await question.click();
  await expect(page.getByText("protótipo funcional", { exact: false })).toBeVisible();
  await question.click();
  await expect(page.getByText("protótipo funcional", { exact: false })).toBeHidden();
  await faqSearch.fill("zzz");
  await expect(page.getByText("Nenhuma pergunta encontrada")).toBeVisible();
  await expect(page.getByText("Tente ajustar o termo de busca")).toBeVisible();

  await page.goto("/glossario");
  const glossarySearch = await hydrated(page.getByPlaceholder("Buscar termo ou definição..."));
  await expect(page.locator("#termos li")).toHaveCount(15);
  await glossarySearch.fill("minimo viavel");
  await expect(page.locator("#termos li")).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "MVP" })).toBeVisible();
  await glossarySearch.fill("sustentação");
  await expect(page.getByRole("heading", { name: "NPS" })).toBeVisible();
  await glossarySearch.fill("qwerty");
  await expect(page.getByText("Termo não encontrado")).toBeVisible();
  await expect(page.getByText("Todos (15)")).toBeVisible();
  await expect(page.getByRole("link", { name: "Enviar Sugestão" })).toHaveAttribute("href", /^mailto:/);
  expect(consoleErrors).toEqual([]);
});

test("the Sementezz carousel moves and loops; the hero button scrolls to how-it-works", async ({ page, loginAs, consoleErrors }) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/sementezz");
  await page.getByRole("link", { name: /Veja demandas e inscreva seu time/ }).click();
  await expect(page).toHaveURL(/#how-it-works$/);
  const carousel = page.getByRole("region", { name: "Como funciona o programa" });
  await expect(carousel).toHaveAttribute("data-ready", "");
  const next = carousel.getByRole("button", { name: "Próxima etapa" });
  const firstSlide = carousel.getByRole("group", { name: "Etapa 1 de 8" });
  const x0 = (await firstSlide.boundingBox())!.x;
  await next.click();
  await expect.poll(async () => (await firstSlide.boundingBox())!.x).toBeLessThan(x0 - 100);
  await carousel.getByRole("button", { name: "Próxima etapa" }).click();
  // Looping: going back from the start shows the last step.
  await page.reload();
  await expect(carousel).toHaveAttribute("data-ready", "");
  const prev = carousel.getByRole("button", { name: "Etapa anterior" });
  await prev.click();
  const last = page.getByRole("group", { name: "Etapa 8 de 8" });
  await expect.poll(async () => (await last.boundingBox())!.x).toBeLessThan(400);
  await expect(page.getByRole("button", { name: "Inscreva sua squad agora" })).toBeDisabled();
  expect(consoleErrors).toEqual([]);
});

test("/comite-ia is denied to visualizador and open to lider", async ({ page, loginAs, context }) => {
  await loginAs(["visualizador"]);
  await page.goto("/comite-ia");
  await expect(page).toHaveURL(/\/acesso-negado\?pagina=/);
  await expect(page.getByRole("heading", { name: "Acesso Não Permitido" })).toBeVisible();
  await context.clearCookies();
  await loginAs(["lider"]);
  await page.goto("/comite-ia");
  await expect(page.getByRole("heading", { name: "Objetivos do comitê" })).toBeVisible();
  await expect(page.getByText("0-30 dias")).toBeVisible();
});

test("/acesso-negado names the refused page and whom to ask, and never echoes an unknown page", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/comite-ia");
  await expect(page).toHaveURL(/\/acesso-negado\?pagina=%2Fcomite-ia$/);
  const comite = findRoute("/comite-ia")!.name;
  // The spec's two sentences word for word; the refused page on a line of its own beside them.
  const spec = "Você não tem permissão para acessar esta página. Entre em contato com o administrador se precisar de acesso.";
  await expect(page.getByText(spec, { exact: true })).toBeVisible();
  await expect(page.getByText(`Página: ${comite}`, { exact: true })).toBeVisible();
  await expect(page.getByText("Peça acesso aos administradores do portal:")).toBeVisible();
  await expect(page.locator("main a[href^='mailto:']")).toHaveText(/^[^@\s]+@[^@\s]+$/);
  await page.goto("/acesso-negado?pagina=%3Cb%3Einjetado%3C%2Fb%3E");
  await expect(page.getByText(spec, { exact: true })).toBeVisible();
  await expect(page.getByText("injetado")).toHaveCount(0);
  await expect(page.getByText(/^Página:/)).toHaveCount(0);
});

test("the trail says 'Salvo' in a polite live region once a change is saved", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/trilha-interativa");
  const name = await hydrated(page.getByLabel("Nome do projeto"));
  const saved = page.getByRole("status").filter({ hasText: "Salvo" });
  await expect(saved).toHaveCount(0);
  await name.fill("Projeto Salvo");
  await expect(saved).toHaveText("Salvo");
  await expect(saved).toHaveAttribute("aria-live", "polite");
});
