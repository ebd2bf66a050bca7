import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** What the reader sees: the page's resolved colour scheme and the body's background. */
async function shownScheme(page: Page) {
  return page.evaluate(() => ({
    colorScheme: getComputedStyle(document.documentElement).colorScheme,
    background: getComputedStyle(document.body).backgroundColor,
  }));
}

const WHITE = "rgb(255, 255, 255)";
const SWITCH_NAME = "Tema: claro / escuro / sistema";

/** Below 640 px the switch lives in the mobile menu. */
async function openMobileSwitch(page: Page) {
  await page.getByLabel("Abrir menu").click();
  return page.getByRole("navigation", { name: "Menu móvel" }).getByRole("group", { name: SWITCH_NAME });
}

test("the header's theme switch: 'Escuro' by keyboard survives a reload, applied before any bundled script runs", async ({
  page,
  loginAs,
  consoleErrors,
}) => {
  await loginAs(["visualizador"]);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/faq");

  const themeSwitch = await openMobileSwitch(page);
  await expect(themeSwitch.getByRole("button", { name: "Sistema" })).toHaveAttribute("aria-pressed", "true");
  expect((await shownScheme(page)).background).toBe(WHITE);

  await themeSwitch.getByRole("button", { name: "Escuro" }).focus();
  await page.keyboard.press("Enter");
  await expect(themeSwitch.getByRole("button", { name: "Escuro" })).toHaveAttribute("aria-pressed", "true");
  await expect(themeSwitch.getByRole("button", { name: "Sistema" })).toHaveAttribute("aria-pressed", "false");
  let shown = await shownScheme(page);
  expect(shown.colorScheme).toBe("dark");
  expect(shown.background).not.toBe(WHITE);
  expect(consoleErrors).toEqual([]);

  // With every bundled script blocked, only the inline head script can apply the stored choice: no light flash.
  await page.route("**/_astro/*.js", (route) => route.abort());
  await page.reload();
  shown = await shownScheme(page);
  expect(shown.colorScheme).toBe("dark");
  expect(shown.background).not.toBe(WHITE);
  await page.unroute("**/_astro/*.js");

  await page.reload();
  await openMobileSwitch(page);
  await expect(themeSwitch.getByRole("button", { name: "Escuro" })).toHaveAttribute("aria-pressed", "true");
});

test("'Sistema' follows the device and 'Claro' overrides a dark device, on every page", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/auth");
  const themeSwitch = page.getByRole("banner").getByRole("group", { name: SWITCH_NAME });
  expect((await shownScheme(page)).background).not.toBe(WHITE);

  await themeSwitch.getByRole("button", { name: "Claro" }).click();
  await expect.poll(async () => (await shownScheme(page)).background).toBe(WHITE);
  await page.goto("/");
  expect(await shownScheme(page)).toEqual({ colorScheme: "light", background: WHITE });
  await expect(themeSwitch.getByRole("button", { name: "Claro" })).toHaveAttribute("aria-pressed", "true");

  await themeSwitch.getByRole("button", { name: "Sistema" }).click();
  await expect.poll(async () => (await shownScheme(page)).background).not.toBe(WHITE);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(async () => (await shownScheme(page)).background).toBe(WHITE);
  expect(await page.evaluate(() => localStorage.getItem("b1-tema"))).toBeNull();
});
