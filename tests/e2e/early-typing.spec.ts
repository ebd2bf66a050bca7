import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

/** Holds the islands' JavaScript until `release()`, so the reader types into the server-rendered field first. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test("text typed into a filter before its island starts is kept and applied (templates, FAQ, glossary)", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);

  for (const { path, placeholder, typed, expectVisible, expectHidden } of [
    {
      path: "/templates",
      placeholder: "Buscar templates...",
      typed: "Lean Canvas",
      expectVisible: "Lean Canvas",
      expectHidden: "Mapa de Empatia",
    },
    {
      path: "/faq",
      placeholder: "Buscar perguntas...",
      typed: "fast track",
      expectVisible: "Quando usar o Fast Track com IA?",
      expectHidden: "O que é a Metodologia B1?",
    },
    { path: "/glossario", placeholder: "Buscar termo ou definição...", typed: "KPI", expectVisible: "KPI", expectHidden: "MVP" },
  ]) {
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: "commit" });
    const field = page.getByPlaceholder(placeholder);
    await field.pressSequentially(typed);
    release();
    await hydrated(field);
    await expect(field).toHaveValue(typed);
    await expect(page.getByText(expectVisible, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(expectHidden, { exact: true })).toHaveCount(0);
    await page.unrouteAll();
  }
});

test("an audit filter typed before the page's island starts is sent with 'Filtrar'", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["security"]);
  const release = await holdScripts(page);
  await page.goto("/audit-logs", { waitUntil: "commit" });
  await page.getByPlaceholder("Nome ou e-mail").pressSequentially("pessoa-inexistente");
  release();
  const filter = await hydrated(page.getByRole("button", { name: "Filtrar" }));
  await expect(page.getByPlaceholder("Nome ou e-mail")).toHaveValue("pessoa-inexistente");
  const [request] = await Promise.all([page.waitForRequest(/\/api\/audit-logs\?.*user=pessoa-inexistente/), filter.click()]);
  expect(request.url()).toContain("user=pessoa-inexistente");
});
