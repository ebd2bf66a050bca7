/**
 * Audit destinations from the admin panel (issue 64): the webhook set by the environment is read-only with the
 * variable's name, and its "Enviar evento de teste" shows the receiver's answer (nobody answers on port 9); an
 * admin adds a syslog collector, tests it, pauses, resumes and removes it. axe finds nothing serious or critical,
 * light and dark, toasts included. Screenshots at 1280 and 390 px go to DEST64_SHOTS when set.
 */
import net from "node:net";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

const BLOCKING = new Set(["serious", "critical"]);

async function axeBothSchemes(page: Page, label: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    // Colours change through a CSS transition: axe reads them once every transition has ended (a toast mid-way failed contrast).
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
    // The whole page, the toast layer included.
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ""));
    expect(
      blocking.map((violation) => `${label} ${scheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.emulateMedia({ colorScheme: "light" });
}

async function shoot(page: Page, name: string) {
  const dir = process.env.DEST64_SHOTS;
  if (!dir) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an admin adds, tests, pauses and removes a syslog destination; the environment's webhook is read-only", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  const collector = net.createServer((socket) => {
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const url = `tcp://127.0.0.1:${(collector.address() as net.AddressInfo).port}`;
  try {
    await loginAs(["admin"]);
    await page.goto("/admin-panel?aba=integracoes");
    await hydrated(page.getByRole("tab", { name: "Integrações" }));

    const webhook = page.getByRole("region", { name: "Webhook assinado" });
    await expect(webhook.locator("[data-locked]")).toContainText("AUDIT_WEBHOOK_URL");
    await expect(webhook.getByRole("button", { name: "Remover" })).toHaveCount(0);
    await expect(webhook.getByRole("button", { name: "Editar endereço" })).toHaveCount(0);
    await webhook.getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect(webhook.locator("[data-test-answer]")).toContainText("Falha de conexão", { timeout: 15_000 });

    const add = page.getByRole("region", { name: "Adicionar destino" });
    await expect(add.getByLabel("Tipo")).toHaveValue("syslog");
    // An address that is not syslog's: a Portuguese refusal, nothing added.
    await add.getByLabel(/Endereço do coletor syslog/).fill("https://coletor.example.com/x");
    await add.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText(/tcp:\/\/servidor:porta/).first()).toBeVisible();
    await add.getByLabel(/Endereço do coletor syslog/).fill(url);
    await add.getByRole("button", { name: "Adicionar" }).click();
    await expect(page.getByText("Destino adicionado").first()).toBeVisible();

    const syslog = page.getByRole("region", { name: "Syslog (RFC 5424)" });
    await expect(syslog.locator("[data-target]")).toHaveText(url);
    await syslog.getByRole("button", { name: "Enviar evento de teste" }).click();
    await expect(syslog.locator("[data-test-answer]")).toContainText("Conexão aceita");
    await axeBothSchemes(page, "adicionado e testado");
    await shoot(page, "integracoes-destinos");

    await syslog.getByRole("button", { name: "Pausar" }).click();
    await expect(syslog.locator("[data-state]")).toHaveText("Pausado");
    await syslog.getByRole("button", { name: "Retomar" }).click();
    await expect(syslog.locator("[data-state]")).not.toHaveText("Pausado");

    await syslog.getByRole("button", { name: /Remover/ }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Remover o destino");
    await axeBothSchemes(page, "confirmação");
    await dialog.getByRole("button", { name: "Remover" }).click();
    await expect(page.getByText("Destino removido").first()).toBeVisible();
    await expect(syslog).toHaveCount(0);
    await expect(add).toBeVisible();
    await axeBothSchemes(page, "removido");
    await shoot(page, "integracoes-adicionar");
    expect(consoleErrors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  } finally {
    collector.close();
  }
});
