import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

// The e2e server runs on an example domain, without TWO_FACTOR_KEY, AUDIT_CHAIN_KEY or a backup, with SMTP.
test("a new admin finds 'Painel' in the header and 'Primeiros passos' on the overview, live from the configuration", async ({
  page,
  loginAs,
}) => {
  await loginAs(["admin"]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/faq");
    if (width === 390) await page.getByLabel("Abrir menu").click();
    const nav = page.getByRole("navigation", { name: width === 390 ? "Menu móvel" : "Principal" });
    await nav.getByRole("link", { name: "Painel", exact: true }).click();
    await expect(page).toHaveURL(/\/admin-panel$/);
    const card = page.getByRole("region", { name: "Primeiros passos" });
    await hydrated(card);
    await expect(card.locator("[data-passo]")).toHaveCount(4);
    await expect(
      card.locator("[data-passo]").evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.passo)),
    ).resolves.toEqual(["dominios", "dois-fatores", "chave-auditoria", "backup"]);
    await expect(card).toContainText("b1.example.com");
    await expect(card).toContainText("docs/implantacao.md, 5. Cópias de segurança");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
      const results = await new AxeBuilder({ page }).include("main").analyze();
      expect(
        results.violations.filter((v) => ["serious", "critical"].includes(v.impact ?? "")).map((v) => `${scheme} ${width} ${v.id}`),
      ).toEqual([]);
    }
  }
});

test("the card is gone when every step is done", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  await page.route("**/api/admin/primeiros-passos", (route) => route.fulfill({ json: { passos: [] } }));
  await page.goto("/admin-panel");
  await expect(page.getByRole("heading", { name: "Seus perfis" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Primeiros passos" })).toHaveCount(0);
});
