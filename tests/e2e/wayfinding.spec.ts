import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

test("a skip link leads the keyboard to the main content, and the menu marks the current page", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Pular para o conteúdo" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#conteudo")).toBeFocused();

  const bar = page.getByRole("navigation", { name: "Principal" });
  await expect(bar.getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
  await expect(bar.locator("[aria-current]")).toHaveCount(1);
});

test("pages off the bar are findable from the 'Mais' menu; 'Voltar' returns to where the reader came from", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/templates");
  const bar = page.getByRole("navigation", { name: "Principal" });
  await bar.getByText("Mais").click();
  for (const name of ["Ferramentas de IA", "Playbook de Produtos", "Sementezz"])
    await expect(bar.getByRole("link", { name })).toBeVisible();
  await bar.getByRole("link", { name: "Sementezz" }).click();
  await expect(page).toHaveURL(/\/sementezz$/);
  await page.getByRole("link", { name: "Voltar" }).click();
  await expect(page).toHaveURL(/\/templates$/);
});

test("the audit log is reachable from the admin panel and, for security, from the account menu", async ({ page, loginAs, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("link", { name: "Abrir Logs de Auditoria" }))).click();
  await expect(page).toHaveURL(/\/audit-logs$/);

  await context.clearCookies();
  await loginAs(["security"]);
  await page.goto("/faq");
  await page.locator('summary[aria-label="Conta"]').click();
  await page.getByRole("link", { name: "Logs de Auditoria" }).click();
  await expect(page).toHaveURL(/\/audit-logs$/);
});
