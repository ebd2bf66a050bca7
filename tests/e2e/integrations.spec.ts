/**
 * The admin panel's Integrações tab (issue 45): the e2e server streams the audit log to a webhook
 * nobody answers (AUDIT_WEBHOOK_URL in playwright.config.ts), so the tab shows a lag and the last
 * error; an admin pauses, resumes and asks for a resend; axe finds nothing serious, light and dark.
 */
import AxeBuilder from "@axe-core/playwright";
import { writeAuditLog } from "../../src/lib/server/audit/audit";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

const BLOCKING = new Set(["serious", "critical"]);

test("an admin sees the webhook's state, pauses, resumes and resends", async ({ page, loginAs, consoleErrors }) => {
  await loginAs(["admin"]);
  // A row to deliver: the server tries at once and records why it could not.
  await writeAuditLog(e2eDb(), { actionType: "page_access_granted", result: "success" });
  await page.goto("/admin-panel?aba=integracoes");
  await hydrated(page.getByRole("tab", { name: "Integrações" }));
  const card = page.getByRole("region", { name: "Webhook assinado" });
  await expect(card).toContainText("http://127.0.0.1:9/b1-auditoria");
  await expect(card.locator("[data-last-error]")).toContainText("Falha de conexão", { timeout: 15_000 });
  await expect(card.locator("[data-lag]")).toContainText(/\d+ eventos?/);

  await card.getByRole("button", { name: "Pausar" }).click();
  await expect(page.getByText("Envio pausado")).toBeVisible();
  await expect(card.locator("[data-state]")).toHaveText("Pausado");
  await card.getByRole("button", { name: "Retomar" }).click();
  await expect(page.getByText("Envio retomado")).toBeVisible();
  await expect(card.locator("[data-state]")).not.toHaveText("Pausado");

  await card.getByLabel(/Reenviar a partir de/).fill("ontem");
  await card.getByRole("button", { name: "Reenviar" }).click();
  await expect(page.getByText(/Informe um número de registro/).first()).toBeVisible();
  await card.getByLabel(/Reenviar a partir de/).fill("1");
  await card.getByRole("button", { name: "Reenviar" }).click();
  await expect(page.getByText("Reenvio pedido")).toBeVisible();
  await expect(card.locator("[data-delivered]")).toContainText("registro 0 de");

  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    // The tab list and the open panel (a toast fading out is the toasts' own spec's business).
    const results = await new AxeBuilder({ page }).include("[role=tablist]").include("[role=tabpanel]").analyze();
    const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ""));
    expect(
      blocking.map((violation) => `${scheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
  expect(consoleErrors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
});
