import fs from "node:fs";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

test("a reader downloads a template kept in git, sees how many are available and filters to those", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const catalog = page.locator("#catalogo");
  const onlyAvailable = await hydrated(catalog.getByRole("checkbox", { name: "Mostrar só os disponíveis" }));
  const total = await catalog.locator("li").count();
  await expect(catalog.getByText(`${total} de ${total} templates`, { exact: true })).toBeVisible();
  await expect(catalog.getByText("· 2 disponíveis para baixar ou abrir", { exact: true })).toBeVisible();

  await onlyAvailable.check();
  await expect(catalog.getByText(`2 de ${total} templates`, { exact: true })).toBeVisible();
  await expect(catalog.locator("li h3")).toHaveText(["Canvas de Ideação", "Playbook de Produtos"]);
  await expect(catalog.getByText("Em breve")).toHaveCount(0);

  const card = catalog.locator("li").filter({ hasText: "Canvas de Ideação" });
  const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: "Baixar" }).click()]);
  expect(download.suggestedFilename()).toBe("canvas-ideacao.pdf");
  const saved = await download.path();
  expect(fs.readFileSync(saved).equals(fs.readFileSync("content/arquivos/canvas-ideacao.pdf"))).toBe(true);

  await onlyAvailable.uncheck();
  await expect(catalog.getByText(`${total} de ${total} templates`, { exact: true })).toBeVisible();
  await expect(catalog.locator("li").filter({ hasText: "Lean Canvas" }).getByText("Em breve")).toBeVisible();

  // The stage that suggests the template offers the same file.
  await page.goto("/etapas-processo");
  const stageLink = page.locator("#etapa-ideacao").getByRole("link", { name: "Baixar" }).first();
  await expect(stageLink).toHaveAttribute("href", "/arquivos/canvas-ideacao.pdf");
  expect(consoleErrors).toEqual([]);
});

test("an MDX page offers a file to those who may open it; anyone else gets the gate's refusal", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  await page.goto("/exemplo-componentes");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Baixar o arquivo de exemplo" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("exemplo-modelo.pdf");

  await page.context().clearCookies();
  await loginAs(["visualizador"]);
  await page.goto("/arquivos/exemplo-modelo.pdf");
  await expect(page).toHaveURL(/\/acesso-negado\?pagina=%2Fexemplo-componentes$/);
});
