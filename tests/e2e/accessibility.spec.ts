import fs from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { decideAccess, ROUTES, type Principal } from "../../src/lib/routes";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";

// axe-core over every page × {light, dark} × {375, 1280} px × persona: no serious or critical violation.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);
const SCHEMES = ["light", "dark"] as const;
const NOT_FOUND_PATH = "/pagina-que-nao-existe";

/** The pages a persona may open (the route table decides), plus an unknown path for the 404 page. */
function pagesFor(roles: readonly string[] | null): string[] {
  const principal: Principal | null = roles && { userId: "", email: "", name: "", roles, grantedPaths: new Set() };
  const openable = ROUTES.filter((route) => decideAccess(route, principal) === "allow");
  // A page's history (issue 66): the version list and the comparison island, for two pages of different kinds.
  const histories = principal
    ? ["/historico/etapas-processo", "/historico/exemplo-componentes"].filter(
        (path) => principal.roles.includes("admin") || path === "/historico/etapas-processo",
      )
    : [];
  // Signed-in people are sent from /auth to the home page.
  return [...openable.filter((route) => !(principal && route.path === "/auth")).map((route) => route.path), ...histories, NOT_FOUND_PATH];
}

const personas = [
  { name: "anônimo", roles: null },
  { name: "visualizador", roles: ["visualizador"] },
  { name: "admin", roles: ["admin"] },
] as const;

/** One line per failing element, readable in the test report. */
interface Finding {
  scheme: string;
  url: string;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/** Waits until every island that hydrates on its own has done so and no colour transition is running. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("astro-island[ssr]")].every((island) => island.getAttribute("client") === "visible"),
  );
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

/**
 * The axe-core that @axe-core/playwright ships, evaluated once per document: the builder evaluates its
 * source twice per analyze(), and a new document has no `window.axe`, so each page load still gets a
 * fresh copy (both passes of a page use the same one; each axe.run clears its own cache at the end).
 */
const axeRequire = createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"));
const AXE_SOURCE = `if (!window.axe) {\n${fs.readFileSync(axeRequire.resolve("axe-core/axe.min.js"), "utf8")}\n}`;

/**
 * The light pass runs every WCAG A/AA rule; the dark pass only what the scheme can change (colour contrast).
 * Legacy mode runs axe.run in the page itself: the default mode opens a blank page per analyze() to merge the
 * frames' partial results, which costs about as much as the rules on these pages (they have no iframes).
 */
async function blockingViolations(page: Page, scheme: (typeof SCHEMES)[number]): Promise<Finding[]> {
  const axe = new AxeBuilder({ page, axeSource: AXE_SOURCE }).setLegacyMode(true);
  const results = await (scheme === "light" ? axe.withTags(WCAG_TAGS) : axe.withRules(["color-contrast"])).analyze();
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ""))
    .flatMap((violation) =>
      violation.nodes.map((node) => ({
        scheme,
        url: new URL(page.url()).pathname,
        rule: violation.id,
        impact: violation.impact ?? "",
        target: node.target.join(" "),
        summary: (node.failureSummary ?? "").split("\n").slice(1).join(" ").trim(),
      })),
    );
}

// The longest file by far: its pages are shared out between the workers like separate files.
test.describe.configure({ mode: "parallel" });

for (const persona of personas) {
  for (const width of [375, 1280]) {
    // One browser context per persona × width, reused page after page; each page is its own test.
    test.describe(`axe, ${persona.name} at ${width}px`, () => {
      let context: BrowserContext;
      let page: Page;

      test.beforeAll(async ({ browser }) => {
        const { baseURL, locale, timezoneId } = test.info().project.use;
        context = await browser.newContext({ baseURL, locale, timezoneId, viewport: { width, height: 900 } });
        if (persona.roles) {
          const user = await createTestUser(e2eDb(), [...persona.roles]);
          await context.addCookies([{ name: SESSION_COOKIE, value: user.token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
        }
        page = await context.newPage();
      });
      test.afterAll(async () => {
        await context.close();
      });

      for (const path of pagesFor(persona.roles)) {
        test(`${path}: no serious or critical violation, light and dark`, async () => {
          test.setTimeout(90_000);
          await page.emulateMedia({ colorScheme: "light" });
          await page.goto(path);
          expect(new URL(page.url()).pathname, "the page opened without a redirect").toBe(path);
          expect(page.frames(), "no iframe (legacy-mode axe would not enter a cross-origin one)").toHaveLength(1);
          const findings: Finding[] = [];
          for (const scheme of SCHEMES) {
            await page.emulateMedia({ colorScheme: scheme });
            await settle(page);
            findings.push(...(await blockingViolations(page, scheme)));
          }
          const byScheme = SCHEMES.map((scheme) => `${scheme}: ${findings.filter((f) => f.scheme === scheme).length}`);
          test.info().annotations.push({ type: "axe serious/critical", description: byScheme.join(", ") });
          expect(
            findings.map((f) => `${f.scheme} ${f.url} ${f.rule} (${f.impact}) ${f.target} — ${f.summary}`),
            `${findings.length} serious/critical axe violations on ${path}`,
          ).toEqual([]);
        });
      }
    });
  }
}

/** WCAG relative-luminance contrast of two `rgb(r, g, b)` colours. */
function contrastRatio(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (lighter! + 0.05) / (darker! + 0.05);
}

test("text fields show a focus ring of at least 3:1 against a light page", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/auth");
  const field = page.getByLabel("E-mail").first();
  await field.focus();
  const indicator = await field.evaluate((element) => {
    const style = getComputedStyle(element);
    const ring = style.boxShadow.match(/rgba?\([^)]*\)/g)?.find((color) => !/,\s*0\)$/.test(color));
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? style.outlineColor : undefined;
    return { color: ring ?? outline ?? "", page: getComputedStyle(document.body).backgroundColor };
  });
  expect(indicator.color, "no visible focus ring").not.toBe("");
  expect(contrastRatio(indicator.color, indicator.page)).toBeGreaterThanOrEqual(3);
});
