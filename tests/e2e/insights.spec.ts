/**
 * Insights in the browser: a reader answers 'Esta página ajudou?' with the keyboard only at 390 px
 * (vote, reason, comment; anonymous); an admin sees the chart and its table agree, the filters in the
 * address, a table's CSV, and the page passes axe in light and dark.
 */
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { eq } from "drizzle-orm";
import { insightsComments, insightsReads, insightsVotes } from "../../db/schema/index";
import { dayOf, daysBefore } from "../../src/lib/server/insights/calendar";
import { e2eDb, expect, test } from "./fixtures";

test("a reader answers 'Esta página ajudou?' with the keyboard only, at 390 px", async ({ page, loginAs, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(["visualizador"]);
  await page.goto("/sementezz");
  const form = page.getByRole("region", { name: "Esta página ajudou?" });
  // The form appears once the end of the page comes near (End, as a keyboard user would).
  await page.keyboard.press("End");
  await expect(form).toBeVisible();
  // From the 'Sim' button on, the keyboard does everything.
  await form.getByRole("button", { name: "Sim" }).focus();
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Não" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("button", { name: "Não" })).toHaveAttribute("aria-pressed", "true");
  await expect(form.getByRole("status")).toHaveText("Obrigado! Se quiser, conte mais abaixo.");
  await page.keyboard.press("Tab");
  await expect(form.getByRole("radio", { name: "Desatualizada" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(form.getByRole("radio", { name: "Confusa" })).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Comentário (opcional, até 1.000 caracteres)")).toBeFocused();
  const comment = `Faltou um exemplo ${Date.now()}`;
  await page.keyboard.type(comment);
  await page.keyboard.press("Tab");
  await expect(form.getByRole("checkbox", { name: "Pode me contatar sobre isto" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(form.getByRole("link", { name: "Como tratamos estes dados" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(form.getByRole("status")).toHaveText("Obrigado pela resposta!");
  const [row] = await e2eDb().select().from(insightsComments).where(eq(insightsComments.body, comment));
  expect(row).toMatchObject({ page: "/sementezz", helpful: 0, reason: "confusa", userId: null });
  // The vote is remembered for this version and can be changed.
  await page.reload();
  await page.keyboard.press("End");
  await expect(form.getByRole("button", { name: "Não" })).toHaveAttribute("aria-pressed", "true");
  await expect(form.getByRole("status")).toContainText("Você respondeu Não");
  expect(consoleErrors).toEqual([]);
});

test("the feedback form asks for the person's vote only when the end of the page comes near", async ({ page, loginAs, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(["visualizador"]);
  const asked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/opiniao") asked.push(request.method());
  });
  await page.goto("/glossario");
  await page.waitForLoadState("networkidle");
  // A page several screens long: its end is more than a screen below the viewport.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(3 * 844);
  const form = page.getByRole("region", { name: "Esta página ajudou?" });
  // Read at its top: no request for the vote, no form yet.
  expect(asked).toEqual([]);
  await expect(form).toBeHidden();
  await page.keyboard.press("End");
  await expect(form).toBeVisible();
  expect(asked).toEqual(["GET"]);
  expect(consoleErrors).toEqual([]);
});

test("an admin's chart and table agree, the filters stay in the address, and a table downloads as CSV", async ({ page, loginAs }) => {
  const today = dayOf(Date.now(), "America/Sao_Paulo");
  const day = daysBefore(today, 3);
  await e2eDb()
    .insert(insightsReads)
    .values([
      { page: "/ferramentas-ia", day, role: "*", reads: 4000 },
      { page: "/ferramentas-ia", day, role: "lider", reads: 1500 },
    ])
    .onConflictDoNothing();
  await loginAs(["admin"]);
  await page.goto("/insights?periodo=7&pagina=%2Fferramentas-ia");
  const series = page.getByRole("table", { name: "Leituras por dia" });
  await expect(series.getByRole("row")).toHaveCount(8);
  await expect(
    series
      .getByRole("row", { name: `${day} ${(4000).toLocaleString("pt-BR")}` })
      .or(series.getByRole("row", { name: new RegExp(`^${day} 4\\.0\\d\\d$`) })),
  ).toBeVisible();
  // The chart plots exactly the table's numbers.
  const chart = page.locator('[data-grafico="Leituras por dia"]');
  await expect(chart.locator("canvas")).toBeVisible();
  const plotted = JSON.parse((await chart.getAttribute("data-valores"))!) as number[];
  const cells = await series.locator("tbody tr td:nth-child(2)").allTextContents();
  expect(cells.map((text) => Number(text.replace(/\./g, "")))).toEqual(plotted);

  await page.getByLabel("Perfil (leituras)").selectOption("lider");
  await expect(page).toHaveURL(/periodo=7&perfil=lider&pagina=%2Fferramentas-ia/);
  await expect(series.getByRole("row", { name: new RegExp(`^${day} 1\\.5\\d\\d$`) })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Perfil (leituras)")).toHaveValue("lider");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "CSV para Excel (;): Leituras por dia", exact: true }).click(),
  ]);
  const csv = fs
    .readFileSync((await download.path())!, "utf8")
    .split("\r\n")
    .filter(Boolean);
  expect(csv[0]).toBe("\uFEFFDia;Leituras");
  expect(csv).toHaveLength(8);
  expect(csv.find((line) => line.startsWith(day))).toMatch(new RegExp(`^${day};1[5-9]\\d\\d$`));
});

test("every Insights table sorts by any column ('Não ajudou' included) with aria-sort; charts name their axes; the readers columns name their weeks", async ({
  page,
  loginAs,
}) => {
  const today = dayOf(Date.now(), "America/Sao_Paulo");
  const day = daysBefore(today, 1);
  const stamp = Date.now();
  // /contato confuses most: 3 'Não', then /faq 2, /glossario 1.
  const votes = [
    ...Array.from({ length: 3 }, (_, index) => ({ page: "/contato", helpful: 0, index })),
    ...Array.from({ length: 2 }, (_, index) => ({ page: "/faq", helpful: 0, index })),
    { page: "/glossario", helpful: 0, index: 0 },
  ];
  await e2eDb()
    .insert(insightsVotes)
    .values(
      votes.map((vote) => ({
        voteKey: `sort-${stamp}-${vote.page}-${vote.index}`,
        page: vote.page,
        version: "1",
        helpful: vote.helpful,
        reason: null,
        day,
      })),
    )
    .onConflictDoNothing();
  await loginAs(["admin"]);
  await page.goto("/insights?periodo=7");
  const table = page.getByRole("table", { name: /Leituras por página/ });
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Leitores distintos: semana passada \(\d{4}-W\d{2}\)/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Leitores distintos: esta semana \(\d{4}-W\d{2}, até hoje\)/ })).toBeVisible();

  const column = (name: string) => table.getByRole("columnheader", { name });
  const notHelpful = column("Não ajudou");
  await expect(notHelpful).not.toHaveAttribute("aria-sort", /.+/);
  await notHelpful.getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(notHelpful).toHaveAttribute("aria-sort", "descending");
  const index = await table
    .getByRole("columnheader")
    .evaluateAll((cells) => cells.findIndex((cell) => cell.textContent?.trim() === "Não ajudou"));
  const values = async () =>
    (await table.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents()).map((text) => Number(text.replace(/\./g, "")));
  const descending = await values();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(await table.locator("tbody tr").first().locator("td").first().textContent()).toBe("Contato");
  await page.keyboard.press("Enter");
  await expect(notHelpful).toHaveAttribute("aria-sort", "ascending");
  const ascending = await values();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  // A text column sorts A→Z first, and only one column says it is sorted.
  await column("Página").getByRole("button").click();
  await expect(column("Página")).toHaveAttribute("aria-sort", "ascending");
  await expect(notHelpful).not.toHaveAttribute("aria-sort", /.+/);
  const titles = await table.locator("tbody tr td:first-child").allTextContents();
  expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, "pt-BR", { numeric: true })));
  // Every other table has sortable headers too.
  for (const caption of ["Leituras por dia", "Leitores distintos por semana", "Leituras por perfil", "Páginas sem leitura em 30 dias"]) {
    const other = page.getByRole("table", { name: new RegExp(`^${caption}`) });
    const buttons = other.getByRole("columnheader").getByRole("button");
    expect(await buttons.count()).toBe(await other.getByRole("columnheader").count());
  }
  // Charts: axis titles with units.
  await expect(page.locator('[data-grafico="Leituras por dia"]')).toHaveAttribute("data-eixo-y", "Leituras (páginas abertas)");
  await expect(page.locator('[data-grafico="Leituras por dia"]')).toHaveAttribute("data-eixo-x", "Dia (mês-dia)");
  await expect(page.locator('[data-grafico="Leitores distintos por semana"]')).toHaveAttribute(
    "data-eixo-y",
    "Pessoas diferentes (estimativa)",
  );
});

for (const scheme of ["light", "dark"] as const) {
  test(`the Insights page passes axe (${scheme})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: scheme, locale: "pt-BR" });
    const { createTestUser } = await import("../support/users");
    const { SESSION_COOKIE } = await import("../../src/lib/server/sessions/session");
    const admin = await createTestUser(e2eDb(), ["admin"]);
    await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
    const page = await context.newPage();
    await page.goto("/insights");
    await expect(page.getByRole("table", { name: /^Leituras por página/ })).toBeVisible();
    // The charts are drawn in the page's scheme (a light grid on a dark page outweighed the data).
    await expect(page.locator("[data-grafico]").first()).toHaveAttribute("data-tema", scheme === "dark" ? "escuro" : "claro");
    const axe = new AxeBuilder({ page });
    const results = await (
      scheme === "light" ? axe.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]) : axe.withRules(["color-contrast"])
    ).analyze();
    expect(
      results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
    await context.close();
  });
}
