import { ROUTES } from "../../src/lib/routes";
import { expect, test } from "./fixtures";

// Every page at phone and desktop width, as an artefact for review (test-results/screenshots, not committed).
const pages = ROUTES.filter((route) => !["/signup-error", "/confirmation-sent"].includes(route.path));

for (const width of [375, 1280]) {
  test(`every page renders without console errors at ${width}px`, async ({ page, loginAs, consoleErrors }) => {
    test.setTimeout(90_000);
    await loginAs(["admin"]);
    await page.setViewportSize({ width, height: 900 });
    for (const route of pages) {
      if (route.path === "/auth") continue; // signed-in users are sent to /
      await page.goto(route.path);
      await expect(page.locator("main")).toBeVisible();
      await page.waitForLoadState("networkidle");
      await page.screenshot({
        path: `test-results/screenshots/${width}${route.path === "/" ? "/inicio" : route.path}.png`,
        fullPage: true,
      });
    }
    expect(consoleErrors).toEqual([]);
  });
}

// Key pages in both colour schemes, for judging contrast by eye (test-results/screenshots/<scheme>).
const keyPages = ["/", "/home-metodologia", "/templates", "/contato"];

for (const width of [375, 1280]) {
  test(`key pages follow the light and dark schemes at ${width}px`, async ({ page, loginAs, consoleErrors }) => {
    test.setTimeout(90_000);
    await loginAs(["admin"]);
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of keyPages) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background === "rgb(255, 255, 255)", `${path} ${scheme}: ${background}`).toBe(scheme === "light");
        const headerWidth = await page.getByRole("banner").evaluate((header) => header.scrollWidth);
        expect(headerWidth, `${path}: the header fits the screen`).toBeLessThanOrEqual(width);
        await page.screenshot({ path: `test-results/screenshots/${scheme}/${width}${path === "/" ? "/inicio" : path}.png` });
      }
    }
    expect(consoleErrors).toEqual([]);
  });
}
