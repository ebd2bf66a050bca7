/**
 * The header holds any number of pages at any width (issue 42 item 1). The pages are added the way a
 * build with more `nav: header` pages renders them: the served HTML gets one more entry per page next to
 * an existing one, in the bar and in the mobile menu (the markup NavLinks.astro writes for each page), so
 * no second build is needed. The reading badge shows a two-digit count (GET /api/leitura answered with 12
 * pending pages) for líder and admin. At 1280, 1024, 768 and 390 px: no control of the header overlaps
 * another or leaves the window, the page never scrolls sideways, and every added page stays reachable
 * (the bar's 'Mais' menu, measured at run time, or the mobile menu).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const EXTRA = Array.from({ length: 9 }, (_, index) => ({
  href: `/pagina-extra-${index + 1}`,
  label: `Página extra de nome longo ${index + 1}`,
}));
const WIDTHS = [1280, 1024, 768, 390];

/** Serves every HTML page with the extra entries after each 'Glossário' entry and a reading count of 12. */
async function withManyPages(page: Page) {
  await page.route("**/api/leitura", async (route) => {
    const response = await route.fetch();
    const status = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...status, pendentes: 12 } });
  });
  await page.route(
    (url) => !url.pathname.startsWith("/api/") && !/\.\w+$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const withExtra = html.replace(/<a href="\/glossario"[^>]*>[\s\S]*?<\/a>/g, (entry) =>
        [entry, ...EXTRA.map((extra) => entry.replace('"/glossario"', `"${extra.href}"`).replace(/>[^<]*</, `>${extra.label}<`))].join(""),
      );
      await route.fulfill({ response, body: withExtra });
    },
  );
}

/** Every visible control of the header: its name and box. */
async function headerControls(page: Page) {
  return page
    .locator("body > header, header.sticky")
    .first()
    .evaluate((header) =>
      [...header.querySelectorAll<HTMLElement>("a, button, summary, input")]
        .map((element) => ({ element, box: element.getBoundingClientRect() }))
        .filter(({ element, box }) => box.width > 2 && box.height > 2 && element.checkVisibility())
        .map(({ element, box }) => ({
          name: (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40),
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
        })),
    );
}

async function checkLayout(page: Page, width: number) {
  await expect(page.locator("[data-leitura-contador]")).toBeVisible();
  await expect(page.locator("[data-leitura-numero]")).toHaveText("12");
  // The overflow script runs on resize; give it the frame it needs, then read the layout.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const controls = await headerControls(page);
  expect(controls.length).toBeGreaterThan(3);
  const outside = controls.filter((control) => control.left < -0.5 || control.right > width + 0.5).map((control) => control.name);
  expect(outside, `controls outside the ${width} px window`).toEqual([]);
  const overlaps: string[] = [];
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      const [a, b] = [controls[i]!, controls[j]!];
      const horizontal = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const vertical = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (horizontal > 0.5 && vertical > 0.5) overlaps.push(`${a.name} × ${b.name}`);
    }
  expect(overlaps, `overlapping header controls at ${width} px`).toEqual([]);
  const scroll = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
  expect(scroll.page, `sideways scroll at ${width} px`).toBeLessThanOrEqual(scroll.window);
}

/** Every added page can be reached from the header at this width. */
async function checkReachable(page: Page, width: number) {
  const last = EXTRA.at(-1)!;
  if (width >= 1280) {
    const bar = page.getByRole("navigation", { name: "Principal" });
    const more = page.locator('details[data-menu="more"]');
    const summary = more.locator("summary");
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(more).toHaveAttribute("open", "");
    await expect(summary).toHaveAttribute("aria-expanded", "true");
    for (const extra of EXTRA) await expect(bar.getByRole("link", { name: extra.label })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(more.getByRole("link").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(more).not.toHaveAttribute("open", "");
    await expect(summary).toHaveAttribute("aria-expanded", "false");
    await expect(summary).toBeFocused();
  } else {
    await page.getByLabel("Abrir menu").click();
    const menu = page.getByRole("navigation", { name: "Menu móvel" });
    const link = menu.getByRole("link", { name: last.label });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeInViewport();
    await page.keyboard.press("Escape");
  }
}

for (const roles of [["lider"], ["admin"]]) {
  test(`header with many pages and a reading count, ${roles[0]}: nothing overlaps, no sideways scroll, all reachable`, async ({
    page,
    loginAs,
    consoleErrors,
  }) => {
    test.setTimeout(60_000);
    await loginAs(roles);
    await withManyPages(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/faq");
      await checkLayout(page, width);
      await checkReachable(page, width);
    }
    if (roles[0] === "admin")
      for (const path of ["/admin-panel", "/audit-logs", "/leitura/relatorio"]) {
        await page.goto(path);
        await checkLayout(page, 390);
      }
    expect(consoleErrors).toEqual([]);
  });
}

test("the crowded header has no serious axe violation at 390 and 1280 px, light and dark", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  await withManyPages(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/faq");
    await expect(page.locator("[data-leitura-numero]")).toHaveText("12");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      if (width === 1280) await page.locator('details[data-menu="more"] summary').click();
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
      const results = await new AxeBuilder({ page }).include("header").analyze();
      const serious = results.violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? ""));
      expect(serious.map((violation) => `${scheme} ${width} ${violation.id}: ${violation.nodes[0]?.target.join(" ")}`)).toEqual([]);
      if (width === 1280) await page.keyboard.press("Escape");
    }
  }
});
