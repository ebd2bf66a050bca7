import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { assignRoleByEmail, createCustomRole } from "../../src/lib/server/admin/roles";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

/** Serious or critical axe findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  // A toast sliding in is measured at its final colours, not half-faded.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  // The toast layer is measured too (issue 64: its colours now pass; see toasts.spec.ts).
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes[0]?.target}`);
}

test("an admin limits a role, restricts a page and restores its default with the keyboard only (axe: 0 serious)", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const created = await createCustomRole(e2eDb(), { name: `parceiros-e2e-${Date.now()}`, description: "Parceiros", pagePaths: ["/5ps"] });
  if (!created.ok) throw new Error("perfil");
  await loginAs(["admin"]);
  await page.goto("/admin-panel?aba=perfis");
  await hydrated(page.getByRole("tab", { name: "Perfis", selected: true }));
  const panel = page.getByRole("tabpanel", { name: "Perfis" });

  // Limit the custom role: 'Acesso limitado' is a checkbox in its dialog; content pages become choices.
  const row = panel.locator("tbody tr", { hasText: "parceiros-e2e" }).first();
  await row.getByRole("button", { name: /Editar perfil parceiros-e2e/ }).focus();
  await page.keyboard.press("Enter");
  const roleDialog = page.getByRole("dialog", { name: "Editar Perfil" });
  await expect(roleDialog.getByRole("group", { name: "Conteúdo" })).toBeVisible();
  await expect(roleDialog.getByRole("group", { name: "Administração" })).toBeVisible();
  await roleDialog.getByRole("checkbox", { name: /Acesso limitado/ }).focus();
  await page.keyboard.press("Space");
  await roleDialog.getByRole("checkbox", { name: /^Glossário/ }).focus();
  await page.keyboard.press("Space");
  expect(await seriousViolations(page)).toEqual([]);
  await roleDialog.getByRole("button", { name: "Salvar Alterações" }).focus();
  await page.keyboard.press("Enter");
  await expect(roleDialog).toHaveCount(0);
  await expect(row).toContainText("Acesso limitado");

  // Restrict /sementezz to Líder, then restore the default.
  const sementezz = panel.locator("tr", { hasText: "/sementezz" });
  await sementezz.getByRole("button", { name: "Alterar quem pode abrir Sementezz" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Quem pode abrir esta página" });
  await expect(dialog.getByText(/Padrão: Todos os usuários conectados/)).toBeVisible();
  await dialog.getByRole("radio", { name: /Padrão/ }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("radio", { name: "Só os perfis escolhidos" })).toBeChecked();
  // The admin role is always in: ticked, fixed, and the dialog says why (no admin locks the admins out).
  const adminBox = dialog.getByRole("checkbox", { name: /^Administrador/ });
  await expect(adminBox).toBeChecked();
  await expect(adminBox).toBeDisabled();
  await expect(adminBox).toHaveAccessibleDescription(/sempre pode abrir todas as páginas/);
  await dialog.getByRole("checkbox", { name: /^Líder/ }).focus();
  await page.keyboard.press("Space");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Salvar" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(sementezz).toContainText("Restrita: Administrador, Líder");
  expect(await seriousViolations(page)).toEqual([]);
  // The admin who saved it still opens the page.
  expect(new URL((await page.request.get("/sementezz", { maxRedirects: 0 })).url()).pathname).toBe("/sementezz");
  expect((await page.request.get("/sementezz", { maxRedirects: 0 })).status()).toBe(200);

  await sementezz.getByRole("button", { name: "Alterar quem pode abrir Sementezz" }).focus();
  await page.keyboard.press("Enter");
  await dialog.getByRole("radio", { name: "Só os perfis escolhidos" }).focus();
  await page.keyboard.press("ArrowUp");
  await dialog.getByRole("button", { name: "Salvar" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(sementezz.getByRole("cell").nth(3)).toHaveText("Padrão");
  expect(await seriousViolations(page)).toEqual([]);
  // The one refused save above is logged by the browser as a 400; nothing else.
  expect(consoleErrors.filter((error) => !error.includes("status of 400"))).toEqual([]);
});

for (const width of [1280, 390]) {
  test(`a partner with one limited role sees only their pages in menus, search, Novidades and reading (${width} px)`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const db = e2eDb();
    const roleName = `parceiro-${width}-${Date.now()}`;
    const created = await createCustomRole(db, { name: roleName, description: "", pagePaths: ["/5ps", "/glossario"], limited: true });
    if (!created.ok) throw new Error("perfil");
    const partner = await createTestUser(db, [], "parceiro");
    await assignRoleByEmail(db, partner.email, roleName);
    await context.addCookies([{ name: SESSION_COOKIE, value: partner.token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);

    await page.goto("/5ps");
    const links = await page
      .locator("header a[href^='/'], nav a[href^='/']")
      .evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname));
    for (const closed of ["/faq", "/templates", "/etapas-processo", "/comite-ia", "/home-metodologia"]) expect(links).not.toContain(closed);
    expect(links).toContain("/glossario");
    // Previous / next skip to the partner's own pages.
    await expect(page.locator("a[href='/templates'], a[href='/etapas-processo']")).toHaveCount(0);

    await page.keyboard.press("Control+k");
    const search = page.getByRole("dialog", { name: "Buscar no portal" });
    await search.getByRole("combobox", { name: "Buscar no portal" }).fill("wireframe");
    await expect(search.getByRole("option").first()).toContainText("Glossário");
    await search.getByRole("combobox", { name: "Buscar no portal" }).fill("espinha dorsal");
    await expect(search.getByText("Buscando...")).toHaveCount(0);
    await expect(search.getByRole("option", { name: /Comitê de IA|Perguntas Frequentes|Templates/ })).toHaveCount(0);
    await page.keyboard.press("Escape");

    await page.goto("/novidades");
    const newsLinks = await page
      .locator("main a[href^='/']")
      .evaluateAll((anchors) => anchors.map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname));
    for (const link of newsLinks) expect(["/5ps", "/glossario", "/novidades", "/leitura", "/"]).toContain(link.split("#")[0]);
    await page.goto("/leitura");
    await expect(page.locator("main a[href='/faq'], main a[href='/templates']")).toHaveCount(0);
    const denied = await page.goto("/faq");
    expect(new URL(denied!.url()).pathname).toBe("/acesso-negado");
  });
}

test("a partner whose role opens /templates but not /playbook-produtos: after hydration the card's 'Abrir' leads nowhere, with no hydration error (issue 62)", async ({
  page,
  context,
  baseURL,
  consoleErrors,
}) => {
  const db = e2eDb();
  const roleName = `parceiro-templates-${Date.now()}`;
  const created = await createCustomRole(db, { name: roleName, description: "", pagePaths: ["/templates", "/5ps"], limited: true });
  if (!created.ok) throw new Error("perfil");
  const partner = await createTestUser(db, [], "parceiro-templates");
  await assignRoleByEmail(db, partner.email, roleName);
  await context.addCookies([{ name: SESSION_COOKIE, value: partner.token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);

  await page.goto("/templates");
  const card = page.locator("li", { has: page.locator("#template-playbook-produtos") });
  await hydrated(page.getByRole("searchbox", { name: "Buscar templates" }));
  await expect(card).toContainText("Abrir");
  await expect(page.locator("a[href='/playbook-produtos']")).toHaveCount(0);
  await expect(card.getByRole("link")).toHaveCount(0);
  // Another template's action is still a link (a file the page offers).
  await expect(page.locator("a[href^='/arquivos/']").first()).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
