/**
 * The required-reading report in the browser, on its own server (READING_REPORT_E2E_PORT, default
 * 4563) whose build lists /sobre-b1 (everyone, version 2) and /comite-ia (líderes and admins) as
 * required: an admin reads the totals, filters, opens a person's pending list with the keyboard
 * and downloads the CSV; the page passes axe in light and dark; a visualizador is refused.
 */
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { createUser } from "../../src/lib/server/auth/user";
import { SESSION_COOKIE, createSession } from "../../src/lib/server/sessions/session";
import { distWithRequiredPages, requiredPage } from "../support/reading-dist";
import { startBuiltServer, type RunningServer } from "../support/server";
import { createTestUser, type TestUser } from "../support/users";
import { expect, test } from "./fixtures";

const PORT = process.env.READING_REPORT_E2E_PORT ?? "4563";
const FORMULA_NAME = "=2+3 Ana Fórmula";
let server: RunningServer;
let dist: string;
const who: Record<string, TestUser> = {};

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dist = distWithRequiredPages([
    requiredPage("/sobre-b1", "Sobre a B1", 2),
    requiredPage("/comite-ia", "Comitê de IA", 1, ["lider", "admin"]),
  ]);
  server = await startBuiltServer({ PORT, B1_DIST_DIR: dist });
  for (const role of ["admin", "lider", "visualizador"]) who[role] = await createTestUser(server.db, [role], `relatorio-${role}`);
  const created = await createUser(server.db, {
    email: "relatorio-formula@b1.example.com",
    fullName: FORMULA_NAME,
    password: "Senha@Teste1",
    roleNames: ["visualizador"],
    confirmed: true,
  });
  if (!created.ok) throw new Error("usuário de teste");
  who.formula = {
    id: created.userId,
    email: "relatorio-formula@b1.example.com",
    fullName: FORMULA_NAME,
    password: "",
    token: (await createSession(server.db, created.userId)).token,
  };
  // The líder confirms /sobre-b1 through the portal's own endpoint.
  const confirmed = await fetch(server.url + "/api/leitura/confirmacoes", {
    method: "POST",
    headers: { cookie: `b1_session=${who.lider!.token}`, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ pagina: "/sobre-b1", versao: 2 }),
  });
  expect(confirmed.status).toBe(200);
  // The totals are counted when the server starts and kept up to five minutes: the server that
  // counts them starts once the people and the confirmation above exist.
  await server.stop({ keepData: true });
  server = await startBuiltServer({ PORT, B1_DIST_DIR: dist }, { dataDir: server.dataDir });
});

test.afterAll(async () => {
  await server?.stop();
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});

async function pageAs(browser: Browser, user: TestUser, colorScheme: "light" | "dark" = "light"): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, locale: "pt-BR", timezoneId: "America/Sao_Paulo", colorScheme });
  await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  return context.newPage();
}

test("an admin reads the totals, filters, opens a person's pending pages and downloads the CSV", async ({ browser }) => {
  const page = await pageAs(browser, who.admin!);
  await page.goto("/");
  await page.getByLabel("Conta", { exact: true }).first().click();
  await page.getByRole("link", { name: "Relatório de leitura" }).click();
  await expect(page).toHaveURL(/\/leitura\/relatorio$/);

  const totals = page.getByRole("table", { name: "Resumo por página (versão atual)" });
  await expect(totals.getByRole("row", { name: /Sobre a B1 2 1 3 25%/ })).toBeVisible();
  await expect(totals.getByRole("row", { name: /Comitê de IA 1 0 2 0%/ })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Sobre a B1, versão 2: 1 de 4 confirmaram (25%); 3 pendentes." })).toBeVisible();

  // Pending people whose name or e-mail has "formula", chosen with the keyboard.
  await page.getByLabel("Situação").selectOption("pendente");
  await page.getByLabel("Nome ou e-mail").fill("formula");
  await page.getByLabel("Nome ou e-mail").press("Enter");
  await expect(page).toHaveURL(/situacao=pendente&busca=formula/);
  const people = page.getByRole("table", { name: "Pessoas que devem ler Sobre a B1" });
  await expect(people.getByRole("row")).toHaveCount(2);
  await expect(people.getByRole("cell", { name: FORMULA_NAME, exact: true })).toBeVisible();
  const toggle = people.getByRole("button", { name: `Ver pendências de ${FORMULA_NAME}` });
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(people.getByRole("listitem")).toHaveText("Sobre a B1 — versão 2 (nunca confirmou)");

  // The CSV has the filtered people, the formula name kept as text.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Baixar CSV", exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^leitura-sobre-b1-v2-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n").filter(Boolean)).toEqual([
    "\uFEFFPágina,Título,Versão,Nome,E-mail,Perfis,Situação,Versão confirmada,Confirmada em",
    `/sobre-b1,Sobre a B1,2,"'${FORMULA_NAME}",relatorio-formula@b1.example.com,Visualizador,Pendente,,`,
  ]);

  // Without the search: everyone pending, never the líder who confirmed.
  await page.getByLabel("Nome ou e-mail").fill("");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(people.getByRole("row")).toHaveCount(4);
  await expect(people).not.toContainText(who.lider!.email);
  const [all] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Baixar CSV", exact: true }).click()]);
  const lines = fs
    .readFileSync((await all.path())!, "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(lines).toHaveLength(4);
  expect(lines.join("\n")).not.toContain(who.lider!.email);
  await page.context().close();
});

for (const scheme of ["light", "dark"] as const) {
  test(`the report passes axe (${scheme}), with a person's pending list open`, async ({ browser }) => {
    const page = await pageAs(browser, who.admin!, scheme);
    await page.goto("/leitura/relatorio");
    const people = page.getByRole("table", { name: "Pessoas que devem ler Sobre a B1" });
    await people
      .getByRole("button", { name: /Ver pendências/ })
      .first()
      .click();
    await expect(people.getByRole("listitem").first().or(people.getByText("Nenhuma leitura pendente")).first()).toBeVisible();
    const axe = new AxeBuilder({ page });
    const results = await (
      scheme === "light" ? axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]) : axe.withRules(["color-contrast"])
    ).analyze();
    expect(
      results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
    await page.context().close();
  });
}

test("on a 390 px phone the report fits its width, with a person's pending list open (light and dark axe: 0 serious)", async ({
  browser,
}) => {
  for (const scheme of ["light", "dark"] as const) {
    const page = await pageAs(browser, who.admin!, scheme);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/leitura/relatorio");
    await expect(page.getByRole("table", { name: "Resumo por página (versão atual)" })).toBeVisible();
    const overflow = () =>
      page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        // What sticks out, for the message when it fails.
        wide: [...document.querySelectorAll("body *")]
          .filter((element) => {
            if (element.getBoundingClientRect().right <= 390.5) return false;
            // Inside a box that scrolls sideways (a wide table) is fine: the page itself does not.
            for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
              if (["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX)) return false;
            }
            return true;
          })
          .slice(0, 5)
          .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`),
      }));
    expect(await overflow()).toEqual({ width: 390, wide: [] });
    const person = page.getByRole("button", { name: /Ver páginas pendentes/ }).first();
    if (await person.count()) {
      await person.click();
      await expect(page.getByRole("dialog").first()).toBeVisible();
      expect((await overflow()).width).toBeLessThanOrEqual(390);
    }
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    if (scheme === "light") await page.screenshot({ path: test.info().outputPath("leitura-relatorio-390.png"), fullPage: true });
    await page.context().close();
  }
});

test("a líder sees the report; a visualizador is refused", async ({ browser }) => {
  const lider = await pageAs(browser, who.lider!);
  await lider.goto("/leitura/relatorio");
  await expect(lider.getByRole("table", { name: "Resumo por página (versão atual)" })).toContainText("Comitê de IA");
  await lider.context().close();
  const viewer = await pageAs(browser, who.visualizador!);
  await viewer.goto("/leitura/relatorio");
  await expect(viewer).toHaveURL(/\/acesso-negado/);
  await viewer.context().close();
});
