/**
 * Required reading in the browser, on a copy of the project in its own git repository (its own
 * server on READING_E2E_PORT, default 4562): a reader confirms a page, the editors commit and build
 * version 2, the reader sees what changed (summary, highlighted section, jump link) and confirms
 * again; a visualizador never sees the title of a page required only of lideres (also in /novidades).
 */
import type { BrowserContext } from "@playwright/test";
import { closeDatabase } from "../../src/lib/server/data/db";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { ContentProject, requiredMdx } from "../support/reading-project";
import { startBuiltServer, type RunningServer } from "../support/server";
import { createTestUser } from "../support/users";
import { expect, test } from "./fixtures";

const PORT = process.env.READING_E2E_PORT ?? "4562";
const SECRET_TITLE = "Plano Zetaquórum dos Líderes";
const BODY_V1 =
  "Leia com atenção.\n\n## Dados de clientes\n\nNunca cole dados de clientes.\n\n## Ferramentas aprovadas\n\nUse as ferramentas da lista.\n";
const BODY_V2 = BODY_V1.replace("Nunca cole dados de clientes.", "Dados de clientes só em ferramentas internas aprovadas pelo comitê.");
const politica = (version: number, summary: string, body: string) =>
  requiredMdx({ title: "Política de IA", access: "signed-in", version, summary, body });

let project: ContentProject;
let server: RunningServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  project = new ContentProject();
  project.write("content/paginas/politica-ia.mdx", politica(1, "Primeira versão da política.", BODY_V1));
  project.write(
    "content/paginas/plano-lideres.mdx",
    requiredMdx({ title: SECRET_TITLE, access: "[lider]", version: 1, summary: "Resumo restrito.", body: "Só para líderes.\n" }),
  );
  project.commit("política v1");
  project.build();
  server = await startBuiltServer({ PORT }, { cwd: project.root, startTimeoutMs: 90_000 });
});

test.afterAll(async () => {
  await server?.stop();
  project?.remove();
});

async function signIn(context: BrowserContext, roles: string[]) {
  const user = await createTestUser(server.db, roles);
  await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  return user;
}

test("a reader confirms, sees what changed in the next version, and confirms again", async ({ browser }) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({ baseURL: server.url });
  await signIn(context, ["visualizador"]);
  const page = await context.newPage();

  await page.goto("/");
  const count = page.locator("[data-leitura-contador]");
  await expect(count).toHaveAccessibleName("1 pendência de leitura");
  const pending = page.getByRole("region", { name: "Pendências de leitura" });
  await expect(pending.getByRole("link", { name: "Política de IA" })).toBeVisible();
  await pending.getByRole("link", { name: "Política de IA" }).click();
  await expect(page).toHaveURL(/\/politica-ia$/);
  await expect(page.getByRole("heading", { name: /Nova versão/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Li e entendi" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Você confirmou a leitura desta versão" })).toBeVisible();
  await expect(count).toBeHidden();

  // The editors publish version 2: commit, build, restart on the same database and port.
  project.write("content/paginas/politica-ia.mdx", politica(2, "Dados de clientes só em ferramentas internas.", BODY_V2));
  project.commit("política v2");
  process.kill(server.pid, "SIGTERM");
  await server.exited;
  await closeDatabase(server.db);
  project.build();
  server = await startBuiltServer({ PORT }, { cwd: project.root, startTimeoutMs: 90_000, dataDir: server.dataDir });

  await page.goto("/politica-ia");
  await expect(count).toHaveAccessibleName("1 pendência de leitura");
  // At the top of the page, seen on arrival without scrolling.
  const changes = page.getByRole("region", { name: "Nova versão: leia o que mudou" });
  await expect(changes).toBeVisible();
  await expect(changes).toBeInViewport();
  await expect(changes.getByText("Desde a versão 1, que você confirmou")).toBeVisible();
  await expect(page.getByText("Dados de clientes só em ferramentas internas.").first()).toBeVisible();
  await expect(page.locator("#dados-de-clientes")).toHaveAttribute("data-leitura-mudou", "");
  await expect(page.locator("#ferramentas-aprovadas")).not.toHaveAttribute("data-leitura-mudou");
  // The changed section's link in the "what changed" box (the contents list and the heading link share its name).
  await page.getByRole("region", { name: "Nova versão: leia o que mudou" }).getByRole("link", { name: "Dados de clientes" }).click();
  await expect(page).toHaveURL(/#dados-de-clientes$/);
  await page.getByRole("button", { name: "Li e entendi" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Você confirmou a leitura desta versão" })).toBeVisible();
  await expect(count).toBeHidden();
  await context.close();
});

test("a visualizador never sees the title of a page required only of lideres", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url });
  await signIn(context, ["visualizador"]);
  const page = await context.newPage();
  await page.goto("/novidades");
  await expect(page.getByRole("link", { name: "Política de IA" }).first()).toBeVisible();
  expect(await page.content()).not.toContain("Zetaquórum");
  for (const path of ["/", "/leitura", "/politica-ia"]) {
    await page.goto(path);
    await expect(page.locator("[data-leitura-contador]")).toHaveAccessibleName(/pendência/);
    expect(await page.content()).not.toContain("Zetaquórum");
  }
  await page.goto("/leitura");
  await expect(page.getByRole("link", { name: "Política de IA" })).toBeVisible();
  expect(await (await page.request.get("/api/leitura")).text()).not.toContain("Zetaquórum");
  expect(await (await page.request.get("/api/novidades")).text()).not.toContain("Zetaquórum");

  const lider = await browser.newContext({ baseURL: server.url });
  await signIn(lider, ["lider"]);
  const liderPage = await lider.newPage();
  await liderPage.goto("/leitura");
  await expect(liderPage.getByRole("link", { name: SECRET_TITLE })).toBeVisible();
  await liderPage.goto("/novidades");
  await expect(liderPage.getByRole("link", { name: SECRET_TITLE })).toBeVisible();
  await context.close();
  await lider.close();
});
