import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

/** Serious or critical axe findings on the page as it is now, the toast layer included. */
async function seriousViolations(page: Page): Promise<string[]> {
  // A toast sliding in is measured at its final colours, not half-faded.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes[0]?.target}`);
}

for (const width of [1280, 390]) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`the success and error toasts pass axe, toast included (${width} px, ${colorScheme})`, async ({ page, loginAs }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await loginAs(["admin"]);
      await page.goto("/admin-panel?aba=perfis");
      await hydrated(page.getByRole("tab", { name: "Perfis", selected: true }));
      const panel = page.getByRole("tabpanel", { name: "Perfis" });
      const row = panel.locator("tr", { hasText: "/ferramentas-ia" });
      const dialog = page.getByRole("dialog", { name: "Quem pode abrir esta página" });

      // An error toast over the open dialog (the server failing is simulated: the dialog stays open), then a
      // save that works — answered here too: a real restriction of /ferramentas-ia, even for a moment, hid the
      // page from readers in specs running beside this one (wayfinding's 'Mais' menu lost it).
      let puts = 0;
      await page.route("**/api/admin/page-access", (route) =>
        route.request().method() !== "PUT"
          ? route.fallback()
          : route.fulfill(++puts === 1 ? { status: 500, body: "{}" } : { status: 200, contentType: "application/json", body: "{}" }),
      );
      await row.getByRole("button", { name: /Alterar quem pode abrir/ }).click();
      await dialog.getByRole("radio", { name: "Só os perfis escolhidos" }).check();
      await dialog.getByRole("button", { name: "Salvar" }).click();
      const errorToast = page.locator("[data-sonner-toast][data-type='error']");
      await expect(errorToast).toContainText("Erro");
      expect(await seriousViolations(page)).toEqual([]);

      // The green 'Sucesso' toast after a save that works (nothing changes on the server).
      await dialog.getByRole("button", { name: "Salvar" }).click();
      await expect(dialog).toHaveCount(0);
      const success = page.locator("[data-sonner-toast][data-type='success']").first();
      await expect(success).toContainText("Sucesso");
      expect(await seriousViolations(page)).toEqual([]);
      if (width === 1280 || colorScheme === "light") {
        await page.screenshot({ path: test.info().outputPath(`toast-${width}-${colorScheme}.png`) });
      }
      await page.unroute("**/api/admin/page-access");
      expect(puts).toBe(2);
      await expect(row.getByRole("cell").nth(3)).toHaveText("Padrão");
    });
  }
}
