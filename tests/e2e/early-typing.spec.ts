import type { Page, Request } from "@playwright/test";
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

// Before its island starts, a form is plain HTML with no action: Enter or a click would send it as
// a GET to the page itself, putting what was typed (a 2FA code, an e-mail) in the address, the
// history and the server's request log, and reloading the page without its ?type=.
test("a form submitted before its island starts sends nothing and reloads nothing; once started it sends what was typed", async ({
  page,
}) => {
  for (const { path, label, typed, button, api, sent } of [
    {
      path: "/link-expired?type=password-reset",
      label: "E-mail",
      typed: "alguem@dominio-estranho.com",
      button: "Solicitar Novo Link",
      api: "**/api/auth/resend-link",
      sent: { email: "alguem@dominio-estranho.com", type: "password-reset" },
    },
    {
      path: "/dois-fatores",
      label: "Código de verificação",
      typed: "123456",
      button: "Verificar",
      api: "**/api/auth/two-factor",
      sent: { code: "123456" },
    },
  ]) {
    const release = await holdScripts(page);
    const documents: string[] = [];
    const onRequest = (request: Request) => void (request.resourceType() === "document" && documents.push(request.url()));
    page.on("request", onRequest);
    await page.goto(path, { waitUntil: "commit" });
    const field = page.getByLabel(label);
    await field.fill(typed);
    await expect(page.getByRole("button", { name: button })).toBeDisabled();
    await field.press("Enter");
    await page.getByRole("button", { name: button }).click({ force: true });
    // A native submission would have started a navigation by now.
    await page.waitForTimeout(300);
    expect(documents, path).toHaveLength(1);
    expect(page.url(), path).toMatch(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
    release();
    const submit = await hydrated(page.getByRole("button", { name: button }));
    await expect(field).toHaveValue(typed);
    const [request] = await Promise.all([page.waitForRequest(api), submit.click()]);
    expect(request.postDataJSON(), path).toEqual(sent);
    page.off("request", onRequest);
    await page.unrouteAll();
  }
});
