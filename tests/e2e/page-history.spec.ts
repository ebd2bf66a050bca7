import fs from "node:fs";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";
import type { HistoryManifest } from "../../src/lib/content/page-history";

/** False when the build ran in a clone without history (a shallow CI checkout): the pages then say so. */
const available = (JSON.parse(fs.readFileSync("dist/historico.json", "utf8")) as HistoryManifest).available;

const SHOTS = process.env.HISTORY_SHOTS_DIR;

test("a reader opens a page's history, compares two versions and an editor follows the edit link", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["lider"]);
  await page.goto("/etapas-processo");
  const meta = page.locator("[data-pagina-meta]");
  await expect(meta.getByText(/^Atualizado em \d{1,2} de \S+ de \d{4}$/)).toBeVisible();
  const edit = meta.getByRole("link", { name: "Editar esta página" });
  await expect(edit).toHaveAttribute("href", /^https:\/\/.+\/content\/etapas\/\w[\w-]*\.mdx$/);
  // The link leaves the portal for the git host (in a new tab): the browser asks for the file's address there.
  const [editor, request] = await Promise.all([
    page.waitForEvent("popup"),
    page.context().waitForEvent("request", (asked) => asked.url().startsWith("https://")),
    edit.click(),
  ]);
  expect(request.url()).toMatch(/\/content\/etapas\/[\w-]+\.mdx$/);
  await editor.close();

  await meta.getByRole("link", { name: "Histórico da página" }).click();
  await expect(page).toHaveURL(/\/historico\/etapas-processo$/);
  await expect(page.getByRole("heading", { level: 1, name: "Histórico: Etapas do Processo" })).toBeVisible();
  if (!available) {
    await expect(page.getByText("Histórico indisponível nesta instalação.")).toBeVisible();
    return;
  }
  const versions = page.locator("[data-versoes] > li");
  expect(await versions.count()).toBeGreaterThanOrEqual(2);
  await expect(versions.first().locator("time")).toHaveText(/\d{4}/);

  const from = await hydrated(page.getByLabel("Versão anterior"));
  const to = page.getByLabel("Versão mais nova");
  const ids = await versions.evaluateAll((items) => items.map((item) => item.getAttribute("data-versao")!));
  await from.selectOption(ids.at(-1)!);
  await to.selectOption(ids[0]!);
  const result = page.locator("[data-comparacao]");
  await expect(result.getByRole("heading", { name: /^Seções (alteradas|novas|removidas) \(\d+\)$/ }).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`de=${ids.at(-1)}`));
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/historico-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/historico-390.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${SHOTS}/historico-390-escuro.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/historico-1280-escuro.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  }
  expect(consoleErrors).toEqual([]);
});

test("a reader's 'Comparar com a versão anterior' opens that pair; a visualizador gets no edit link", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/etapas-processo");
  await expect(page.locator("[data-pagina-meta]").getByRole("link", { name: "Histórico da página" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar esta página" })).toHaveCount(0);
  await page.goto("/historico/etapas-processo");
  test.skip(!available, "build sem histórico do git (clone raso): a página diz que o histórico está indisponível");
  await hydrated(page.getByLabel("Versão anterior"));
  await page.locator("[data-versoes] > li").first().getByRole("link", { name: "Comparar com a versão anterior" }).click();
  await expect(page.locator("[data-comparacao] ins, [data-comparacao] del").first()).toBeVisible();
});

test("the history of a restricted page is refused like the page", async ({ page, loginAs }) => {
  await loginAs(["visualizador"]);
  await page.goto("/historico/comite-ia");
  await expect(page).toHaveURL(/\/acesso-negado\?pagina=%2Fcomite-ia$/);
});

test("'O que mudou desde a sua última visita' appears when this browser saw an older version, and leads to that comparison", async ({
  page,
  loginAs,
}) => {
  test.skip(!available, "build sem histórico do git (clone raso)");
  await loginAs(["visualizador"]);
  await page.goto("/etapas-processo");
  const notice = page.locator("[data-ultima-visita]");
  // First visit: nothing to tell.
  await expect(notice).toBeHidden();
  const ids = (await notice.getAttribute("data-versoes"))!.split(",");
  await page.evaluate(([older]) => localStorage.setItem("b1-versao-vista", JSON.stringify({ "/etapas-processo": older })), [ids.at(-1)!]);
  await page.reload();
  const link = notice.getByRole("link", { name: "O que mudou desde a sua última visita" });
  await expect(link).toBeVisible();
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/pagina-mudou-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/pagina-mudou-390.png` });
    await page.locator("[data-pagina-meta]").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/pagina-rodape-390.png` });
  }
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/historico/etapas-processo\\?de=${ids.at(-1)}&para=${ids[0]}#comparar$`));
  await expect(page.getByLabel("Versão anterior")).toHaveValue(ids.at(-1)!);
  await page.goto("/etapas-processo");
  await expect(notice).toBeHidden();
});
