import type { Locator, Page } from "@playwright/test";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, "element on screen").not.toBeNull();
  return box!;
}

/** The lines of text (their rectangles on screen) that lie under `target`, outside it. */
function textUnder(page: Page, target: Locator): Promise<string[]> {
  return target.evaluate((element) => {
    const mine = element.getBoundingClientRect();
    const covered: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || element.contains(node)) continue;
      const parent = node.parentElement;
      if (!parent || parent.closest("[hidden], .sr-only, script, style, template")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const hit = rect.width > 0 && rect.left < mine.right && mine.left < rect.right && rect.top < mine.bottom && mine.top < rect.bottom;
        if (hit) covered.push(node.textContent.trim().slice(0, 40));
      }
    }
    return covered;
  });
}

for (const width of [1280, 390]) {
  test(`a toast never covers the header or the open account menu (${width} px)`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height: 844 });
    await loginAs(["admin"]);
    const other = await createTestUser(e2eDb(), ["visualizador"], "aviso");
    await page.goto("/admin-panel");
    await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
    await page.getByPlaceholder("Buscar usuários...").fill(other.email);
    await page.getByRole("button", { name: `Encerrar sessões de ${other.email}` }).click();
    await page.getByRole("button", { name: "Encerrar sessões", exact: true }).click();
    const toast = page.locator("[data-sonner-toast]").first();
    await expect(toast).toContainText("Sessões encerradas");
    // Toasts are fixed: where one is now is where it stays while the menu opens.
    const toastBox = await boxOf(toast);
    expect(overlaps(toastBox, await boxOf(page.locator("header").first())), "toast over the header").toBe(false);
    await page.getByLabel("Conta", { exact: true }).click();
    const menu = page.locator('details[data-menu="account"] > div');
    await expect(menu).toBeVisible();
    expect(overlaps(toastBox, await boxOf(menu)), "toast over the account menu").toBe(false);
  });
}

test("on a phone the glossary button covers no text, at the top, the middle and the end of a page", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(["visualizador"]);
  await page.goto("/faq");
  const button = page.getByRole("link", { name: /Clique para abrir o Glossário B1/ });
  await expect(button).toBeAttached();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (const y of [0, Math.round(height / 2), height]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    if (!(await button.isVisible()) || !(await button.boundingBox())) continue;
    expect(await textUnder(page, button), `text under the button at scroll ${y}`).toEqual([]);
  }
  await button.scrollIntoViewIfNeeded();
  expect(await textUnder(page, button)).toEqual([]);
});
