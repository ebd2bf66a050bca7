import AxeBuilder from "@axe-core/playwright";
import { ROUTES, defaultPermissions, grantablePages, pageGroup } from "../../src/lib/routes";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { writeAuditLog } from "../../src/lib/server/audit/audit";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

test("an admin creates, finds, edits and deletes a user", async ({ page, loginAs, consoleErrors }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await expect(page.getByRole("heading", { name: "Painel Administrativo" })).toBeVisible();
  await expect(page.getByText("Administrador", { exact: true })).toBeVisible();
  await expect(page.getByText("Usuários podem ter vários perfis ao mesmo tempo.")).toBeVisible();
  await (await hydrated(page.getByRole("tab", { name: "Sistema" }))).click();
  await expect(page.getByRole("tabpanel", { name: "Sistema" }).getByText("Em Desenvolvimento")).toHaveCount(2);

  await page.getByRole("tab", { name: "Usuários" }).click();
  await page.getByRole("button", { name: "Novo Usuário" }).click();
  const dialog = page.getByRole("dialog");
  const email = `rita-${Date.now()}@b1.example.com`;
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Nome Completo").fill("Rita Lee");
  await expect(dialog.getByPlaceholder("Senha temporária")).toBeVisible();
  await dialog.getByLabel("Senha").fill("Senha@123");
  await dialog.getByLabel("Líder").check();
  await dialog.getByLabel("Segurança").check();
  await dialog.getByRole("button", { name: "Criar Usuário" }).click();
  await expect(page.getByText("Usuário criado com sucesso")).toBeVisible();

  await page.getByPlaceholder("Buscar usuários...").fill("RITA");
  const row = page.getByRole("row", { name: new RegExp(email) });
  await expect(row).toBeVisible();
  await expect(row.getByText("Líder")).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2);

  const edit = row.getByRole("button", { name: `Editar ${email}` });
  await edit.click();
  await expect(page.getByRole("dialog").getByLabel("E-mail")).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(edit).toBeFocused();
  await edit.click();
  await page.getByRole("dialog").getByLabel("Nome Completo").fill("Rita Lee Jones");
  await page.getByRole("dialog").getByLabel("Segurança").uncheck();
  await page.getByRole("button", { name: "Salvar Alterações" }).click();
  await expect(page.getByText("Usuário atualizado com sucesso")).toBeVisible();
  await expect(page.getByRole("row", { name: /Rita Lee Jones/ })).not.toContainText("Segurança");

  await page.getByRole("button", { name: `Excluir ${email}` }).click();
  await expect(page.getByText(`Tem certeza que deseja excluir este usuário? Rita Lee Jones (${email})`, { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Excluir", exact: true }).click();
  await expect(page.getByText("Usuário excluído com sucesso")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(email) })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("a custom role opens a page to its holder until the role is deleted; system roles stay protected", async ({
  page,
  browser,
  baseURL,
  loginAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Perfis" }))).click();
  await expect(page.getByText(/\d+ perfis configurados/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Excluir perfil lider" })).toHaveCount(0);
  await page.getByRole("button", { name: "Editar perfil lider" }).click();
  await expect(page.getByRole("dialog").getByLabel("Nome do Perfil")).toBeDisabled();
  await expect(page.getByText("Nome não pode ser alterado em perfis do sistema")).toBeVisible();
  await page.keyboard.press("Escape");

  const name = `comite-${Date.now()}`;
  await page.getByRole("button", { name: "Novo Perfil" }).click();
  await page.getByRole("dialog").getByLabel("Nome do Perfil").fill(name);
  await page.getByRole("dialog").getByLabel("Descrição").fill("Convidados do comitê");
  await page
    .getByRole("dialog")
    .getByLabel(/Comitê de IA/)
    .check();
  await page.getByRole("button", { name: "Criar Perfil" }).click();
  await expect(page.getByText("Perfil criado com sucesso")).toBeVisible();

  // A visualizador in another browser gets the role and opens /comite-ia on the next request.
  const other = await browser.newContext();
  const holder = await (async () => {
    const { createTestUser } = await import("../support/users");
    const { e2eDb } = await import("./fixtures");
    return createTestUser(e2eDb(), ["visualizador"]);
  })();
  await other.addCookies([{ name: SESSION_COOKIE, value: holder.token, url: baseURL! }]);
  const holderPage = await other.newPage();
  await holderPage.goto(`${baseURL}/comite-ia`);
  await expect(holderPage).toHaveURL(/\/acesso-negado\?pagina=/);

  await page.reload();
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  await page.getByPlaceholder("Buscar usuários...").fill(holder.email);
  await page.getByRole("button", { name: `Editar ${holder.email}` }).click();
  await page.getByRole("dialog").getByLabel(name).check();
  await page.getByRole("button", { name: "Salvar Alterações" }).click();
  await expect(page.getByText("Usuário atualizado com sucesso")).toBeVisible();
  await holderPage.goto(`${baseURL}/comite-ia`);
  await expect(holderPage).toHaveURL(/\/comite-ia$/);

  await page.getByRole("tab", { name: "Perfis" }).click();
  await page.getByRole("button", { name: `Excluir perfil ${name}` }).click();
  await expect(page.getByText(`Tem certeza que deseja excluir o perfil "${name}"?`, { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Excluir", exact: true }).click();
  await expect(page.getByText("Perfil excluído com sucesso")).toBeVisible();
  await holderPage.goto(`${baseURL}/comite-ia`);
  await expect(holderPage).toHaveURL(/\/acesso-negado\?pagina=/);
  await other.close();
});

test("the audit page shows the flows' rows with Portuguese labels and pt-BR times", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["security"]);
  await page.goto("/admin-panel");
  await expect(page).toHaveURL(/\/acesso-negado\?pagina=/);
  await page.goto("/audit-logs");
  await expect(page.getByRole("heading", { name: "Logs de Auditoria" })).toBeVisible();
  for (const header of ["Data/Hora", "Usuário", "Ação", "Resultado", "Detalhes"]) {
    await expect(page.getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(page.getByRole("cell", { name: "Acesso Negado" }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/ }).first()).toBeVisible();
  const table = page.locator("tbody");
  await expect(table.getByText("Bloqueado").first()).toBeVisible();
  await (await hydrated(page.getByRole("combobox", { name: "Resultado", exact: true }))).selectOption("blocked");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(table.getByText("Bloqueado").first()).toBeVisible();
  await expect(table.getByText("Sucesso", { exact: true })).toHaveCount(0);
});

test("the audit page exports the filtered rows as ';'-separated CSV for Excel", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  await page.goto("/audit-logs");
  await (await hydrated(page.getByRole("combobox", { name: "Resultado", exact: true }))).selectOption("blocked");
  await page.getByRole("button", { name: "Filtrar" }).click();
  const link = page.getByRole("link", { name: "Exportar CSV para Excel (;)" });
  await expect(link).toHaveAttribute("href", /result=blocked/);
  const csv = await (await page.request.get((await link.getAttribute("href"))!)).text();
  const [header, ...rows] = csv
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean);
  expect(header).toBe("Data/Hora;Usuário;E-mail;Ação;Resultado;Detalhes;IP;User-Agent;Detalhes (legível)");
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toContain(";Bloqueado;");
});

test("an audit row's 'Detalhes' opens from the keyboard as labelled Portuguese fields, with the JSON pretty-printed beneath", async ({
  page,
  loginAs,
}) => {
  const marker = `detalhe-${Date.now()}`;
  await writeAuditLog(e2eDb(), {
    actionType: "user_logout",
    result: "success",
    details: { marker, motivo: "x".repeat(120), error: "invalid_credentials", sent: false, roles: ["admin", "lider"] },
  });
  await loginAs(["admin"]);
  await page.goto("/audit-logs");
  const row = page.locator("tbody tr", { hasText: marker }).first();
  // The column keeps the spec's truncated JSON.
  await expect(row.getByText(/^\{"marker":.*…$/)).toBeVisible();
  const summary = row.getByText("Detalhes", { exact: true });
  await (await hydrated(summary)).focus();
  await page.keyboard.press("Enter");
  const fields = row.locator("dl");
  await expect(fields).toBeVisible();
  const pairs = await fields.evaluate((list) =>
    [...list.querySelectorAll("dt")].map((term) => `${term.textContent}=${term.nextElementSibling?.textContent}`),
  );
  expect(pairs).toEqual([
    `marker=${marker}`,
    `Motivo=${"x".repeat(120)}`,
    "Motivo=e-mail ou senha incorretos",
    "Enviado=não",
    "Perfis=admin, lider",
  ]);
  await row.getByText("JSON completo", { exact: true }).click();
  await expect(row.locator("pre")).toBeVisible();
  expect(await row.locator("pre").textContent()).toContain(`{\n  "marker": "${marker}",\n  "motivo": "${"x".repeat(120)}",`);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
    const results = await new AxeBuilder({ page }).include("tbody").analyze();
    expect(results.violations.filter((v) => ["serious", "critical"].includes(v.impact ?? "")).map((v) => `${scheme} ${v.id}`)).toEqual([]);
  }
});

test("audit filters live in the address and apply when changed: a shared link applies them and Back restores the previous ones", async ({
  page,
  loginAs,
}) => {
  await loginAs(["admin"]);
  await page.goto("/audit-logs?result=blocked");
  const result = await hydrated(page.getByRole("combobox", { name: "Resultado", exact: true }));
  const table = page.locator("tbody");
  await expect(result).toHaveValue("blocked");
  await expect(table.getByText("Bloqueado").first()).toBeVisible();
  await expect(table.getByText("Sucesso", { exact: true })).toHaveCount(0);
  // No "Filtrar" click: the choice applies by itself and the address follows.
  await result.selectOption("success");
  await expect(page).toHaveURL(/\/audit-logs\?result=success$/);
  await expect(table.getByText("Bloqueado")).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/audit-logs\?result=blocked$/);
  await expect(result).toHaveValue("blocked");
  await expect(table.getByText("Sucesso", { exact: true })).toHaveCount(0);
  await expect(table.getByText("Bloqueado").first()).toBeVisible();
});

test("the overview names the four system roles and the roles tab shows their Portuguese labels", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await expect(page.getByText("Perfis do sistema (Administrador, Líder, Visualizador, Segurança) não podem ser excluídos.")).toBeVisible();
  await (await hydrated(page.getByRole("tab", { name: "Perfis" }))).click();
  const names = page.getByRole("tabpanel", { name: "Perfis" }).locator("tbody tr td:first-child");
  for (const label of ["Administrador", "Líder", "Visualizador", "Segurança"])
    await expect(names.getByText(label, { exact: true })).toHaveCount(1);
});

test("editing only a role's description keeps its granted pages (UI and API)", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Perfis" }))).click();
  const name = `auditoria-${Date.now()}`;
  await page.getByRole("button", { name: "Novo Perfil" }).click();
  await page.getByRole("dialog").getByLabel("Nome do Perfil").fill(name);
  await page
    .getByRole("dialog")
    .getByLabel(/Logs de Auditoria/)
    .check();
  await page.getByRole("button", { name: "Criar Perfil" }).click();
  await expect(page.getByText("Perfil criado com sucesso")).toBeVisible();

  await page.getByRole("button", { name: `Editar perfil ${name}` }).click();
  await expect(page.getByRole("dialog").getByLabel(/Logs de Auditoria/)).toBeChecked();
  await page.getByRole("dialog").getByLabel("Descrição").fill("Só a descrição mudou");
  await page.getByRole("button", { name: "Salvar Alterações" }).click();
  await expect(page.getByText("Perfil atualizado com sucesso")).toBeVisible();

  await page.getByRole("button", { name: `Editar perfil ${name}` }).click();
  await expect(page.getByRole("dialog").getByLabel(/Logs de Auditoria/)).toBeChecked();
  await page.keyboard.press("Escape");
  const listed = (await (await page.request.get("/api/admin/roles")).json()) as { roles: { name: string; pages: string[] }[] };
  expect(listed.roles.find((role) => role.name === name)?.pages).toEqual(["/audit-logs"]);
});

test("admin forms: refusals beside their field, meaningful subtitles, no 'Excluir' on one's own row, locked pages apart", async ({
  page,
  loginAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const me = await loginAs(["admin"]);
  const other = await createTestUser(e2eDb(), ["lider"], "ja-existe");
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();

  await page.getByPlaceholder("Buscar usuários...").fill(me.email);
  await expect(page.getByRole("button", { name: `Editar ${me.email}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Excluir ${me.email}` })).toHaveCount(0);

  await page.getByRole("button", { name: "Novo Usuário" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Usuário" });
  await expect(dialog).toHaveAccessibleDescription(/senha temporária/);
  await dialog.getByLabel("E-mail").fill(other.email);
  await dialog.getByLabel("Nome Completo").fill("Outra Pessoa");
  await dialog.getByLabel("Senha").fill("Senha@123");
  await dialog.getByRole("button", { name: "Criar Usuário" }).click();
  const emailField = dialog.getByLabel("E-mail");
  await expect(emailField).toHaveAccessibleDescription("Já existe um usuário com este e-mail");
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toBeFocused();
  await page.keyboard.press("Escape");

  await page.getByRole("tab", { name: "Perfis" }).click();
  await page.getByRole("button", { name: "Editar perfil lider" }).click();
  const roleDialog = page.getByRole("dialog", { name: "Editar Perfil" });
  await expect(roleDialog.getByRole("group", { name: "Restritas" })).toBeVisible();
  // Every page is listed; only real choices are enabled: the restricted pages the lider role does not already hold.
  const choices = grantablePages().filter((route) => route.access.kind === "roles" && !defaultPermissions("lider").includes(route.path));
  expect(choices.map((route) => route.path)).toContain("/audit-logs");
  await expect(roleDialog.getByRole("checkbox", { disabled: false })).toHaveCount(choices.length);
  await expect(roleDialog.getByRole("checkbox", { name: /Logs de Auditoria/ })).toBeVisible();
});

test("the users tab searches on the server, accents ignored, with role counts", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  const { createUser } = await import("../../src/lib/server/auth/user");
  const email = `julia-${Date.now()}@b1.example.com`;
  await createUser(e2eDb(), { email, fullName: "Júlia Araújo", password: "Senha@Teste1", roleNames: ["lider"], confirmed: true });
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  await page.getByPlaceholder("Buscar usuários...").fill("JULIA araujo");
  await expect(page.getByRole("row", { name: new RegExp(email) })).toBeVisible();
  await expect(page.getByText(/^1 usuário$/)).toBeVisible();
  const filter = page.getByRole("combobox", { name: "Filtrar por perfil" });
  await expect(filter.locator("option", { hasText: "Líder (1)" })).toHaveCount(1);
  await filter.selectOption("admin");
  await expect(page.getByText("Nenhum usuário encontrado")).toBeVisible();
});

test("the panel's tab, user search and page live in the address: a reload and Back show them again", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  const person = await createTestUser(e2eDb(), ["visualizador"], "endereco-painel");
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  await expect(page).toHaveURL(/\/admin-panel\?aba=usuarios$/);
  await page.getByPlaceholder("Buscar usuários...").fill(person.email);
  await expect(page).toHaveURL(new RegExp(`aba=usuarios&q=${encodeURIComponent(person.email).replaceAll(".", "\\.")}$`));
  await expect(page.getByRole("row", { name: new RegExp(person.email) })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("tab", { name: "Usuários" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByPlaceholder("Buscar usuários...")).toHaveValue(person.email);
  await expect(page.getByRole("row", { name: new RegExp(person.email) })).toBeVisible();
  await expect(page.getByText(/^1 usuário$/)).toBeVisible();

  await page.getByRole("tab", { name: "Perfis" }).click();
  await expect(page).toHaveURL(/\/admin-panel\?aba=perfis$/);
  await page.goBack();
  await expect(page.getByRole("tab", { name: "Usuários" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByPlaceholder("Buscar usuários...")).toHaveValue(person.email);
  await page.goto("/admin-panel?aba=usuarios&pagina=999");
  await expect(page.getByRole("tab", { name: "Usuários" })).toHaveAttribute("aria-selected", "true");
  await page.goto("/admin-panel?aba=inexistente");
  await expect(page.getByRole("tab", { name: "Visão Geral" })).toHaveAttribute("aria-selected", "true");
});

test("without TWO_FACTOR_KEY no row offers a two-factor reset and the list says two-factor is off", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const me = await loginAs(["admin"]);
  const other = await createTestUser(e2eDb(), ["visualizador"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  // The list is oldest first and other specs add people: find this admin by name, not by page 1.
  await page.getByPlaceholder("Buscar usuários...").fill(me.email);
  await expect(page.getByRole("button", { name: `Editar ${me.email}` })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Redefinir verificação em duas etapas de / })).toHaveCount(0);
  await expect(page.getByText("Verificação em duas etapas desligada neste portal: defina TWO_FACTOR_KEY para ativá-la.")).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Duas etapas" })).toHaveCount(0);
  await page.getByPlaceholder("Buscar usuários...").fill(other.email);
  await expect(page.getByRole("row", { name: new RegExp(other.email) })).toBeVisible();
  await expect(page.getByRole("button", { name: `Redefinir verificação em duas etapas de ${other.email}` })).toHaveCount(0);
});

test("the roles tab says 'Todas' for a role that opens every page and counts the pages the others really open", async ({
  page,
  loginAs,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Perfis" }))).click();
  const panel = page.getByRole("tabpanel", { name: "Perfis" });
  await expect(panel.getByRole("columnheader").nth(4)).toHaveText("Páginas");
  const pagesOf = (label: string) =>
    panel
      .locator("tbody tr", { has: page.getByRole("cell", { name: label, exact: true }) })
      .getByRole("cell")
      .nth(4);
  await expect(pagesOf("Administrador")).toHaveText("Todas");
  // Visualizador reads every content page; Segurança those and the audit log (Access II: real counts, not grants).
  const contentPages = ROUTES.filter((route) => pageGroup(route) === "conteudo").length;
  await expect(pagesOf("Visualizador")).toHaveText(String(contentPages));
  await expect(pagesOf("Segurança")).toHaveText(String(contentPages + 1));
});

test("an access row in the audit log names the role that opened the page, or the roles a denied page needs", async ({
  page,
  loginAs,
  baseURL,
}) => {
  const reader = await createTestUser(e2eDb(), ["visualizador"], "leitor-negado");
  const leader = await createTestUser(e2eDb(), ["lider"], "lider-liberado");
  for (const who of [reader, leader]) {
    await fetch(`${baseURL}/comite-ia`, { redirect: "manual", headers: { cookie: `${SESSION_COOKIE}=${who.token}` } });
  }
  await loginAs(["admin"]);
  await page.goto(`/audit-logs?user=${encodeURIComponent(reader.email)}`);
  const denied = page.locator("tbody tr", { hasText: "Acesso Negado" }).first();
  await expect(denied).toContainText("Exige: Líder ou Administrador");
  await page.goto(`/audit-logs?user=${encodeURIComponent(leader.email)}`);
  const granted = page.locator("tbody tr", { hasText: "Acesso Liberado" }).first();
  await expect(granted).toContainText("Liberado por: Líder");
});
