import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ROUTES } from "../../src/lib/routes";
import { expect, test } from "./fixtures";

// axe-core over every page × {light, dark} × {375, 1280} px × persona: no serious or critical violation.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);
const SCHEMES = ["light", "dark"] as const;
const NOT_FOUND_PATH = "/pagina-que-nao-existe";

/** Pages a signed-out visitor sees; signed-in people are sent away from /auth. */
const PUBLIC_PATHS = [...ROUTES.filter((route) => route.access.kind === "public").map((route) => route.path), NOT_FOUND_PATH];
/** Everything else, opened signed in (pages a persona may not open land on /acesso-negado). */
const SIGNED_IN_PATHS = [...ROUTES.filter((route) => route.path !== "/auth").map((route) => route.path), NOT_FOUND_PATH];

const personas = [
  { name: "anônimo", roles: null, paths: PUBLIC_PATHS },
  { name: "visualizador", roles: ["visualizador"], paths: SIGNED_IN_PATHS },
  { name: "admin", roles: ["admin"], paths: SIGNED_IN_PATHS },
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

/** The light pass runs every WCAG A/AA rule; the dark pass only what the scheme can change (colour contrast). */
async function blockingViolations(page: Page, scheme: (typeof SCHEMES)[number]): Promise<Finding[]> {
  const axe = new AxeBuilder({ page });
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

for (const persona of personas) {
  for (const width of [375, 1280]) {
    test(`axe: no serious or critical violation for ${persona.name} at ${width}px, light and dark`, async ({ page, loginAs }) => {
      test.setTimeout(180_000);
      if (persona.roles) await loginAs([...persona.roles]);
      await page.setViewportSize({ width, height: 900 });
      const findings: Finding[] = [];
      const seen = new Set<string>();
      for (const path of persona.paths) {
        await page.emulateMedia({ colorScheme: "light" });
        await page.goto(path);
        const landed = new URL(page.url()).pathname;
        if (seen.has(landed)) continue;
        seen.add(landed);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme });
          await settle(page);
          findings.push(...(await blockingViolations(page, scheme)));
        }
      }
      const byScheme = SCHEMES.map((scheme) => `${scheme}: ${findings.filter((f) => f.scheme === scheme).length}`);
      test.info().annotations.push({ type: "axe serious/critical", description: byScheme.join(", ") });
      console.log(`[axe] ${persona.name} ${width}px → ${byScheme.join(", ")}`);
      fs.mkdirSync("test-results/axe", { recursive: true });
      fs.writeFileSync(`test-results/axe/${persona.name}-${width}.json`, JSON.stringify(findings, null, 1));
      expect(
        findings.map((f) => `${f.scheme} ${f.url} ${f.rule} (${f.impact}) ${f.target} — ${f.summary}`),
        `${findings.length} serious/critical axe violations`,
      ).toEqual([]);
    });
  }
}
