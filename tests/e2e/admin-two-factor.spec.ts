import AxeBuilder from "@axe-core/playwright";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { startBuiltServer, type RunningServer } from "../support/server";
import { createTestUser, type TestUser } from "../support/users";
import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

// Its own portal: the two-factor column and the reset need TWO_FACTOR_KEY (admins and security must enrol, the default).
const TWO_FACTOR_KEY = "d".repeat(64);

test.describe.serial("the users tab with two-factor configured", () => {
  let portal: RunningServer;
  let admin: TestUser;
  let enrolled: TestUser;
  let pending: TestUser;

  /** Enrols through the portal's own API with the user's session, as the enrolment page does. */
  async function enrol(user: TestUser) {
    const call = (method: string, body: unknown) =>
      fetch(`${portal.url}/api/conta/dois-fatores`, {
        method,
        headers: { "content-type": "application/json", origin: portal.url, cookie: `${SESSION_COOKIE}=${user.token}` },
        body: JSON.stringify(body),
      });
    const { manualKey } = (await (await call("POST", {})).json()) as { manualKey: string };
    const key = decodeBase32IgnorePadding(manualKey.replace(/\s/g, ""));
    const code = generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000)), 6);
    expect((await call("PUT", { code })).status).toBe(200);
  }

  test.beforeAll(async () => {
    portal = await startBuiltServer({ TWO_FACTOR_KEY });
    admin = await createTestUser(portal.db, ["admin"]);
    enrolled = await createTestUser(portal.db, ["visualizador"], "com-2fa");
    pending = await createTestUser(portal.db, ["security"], "sem-2fa");
    await enrol(admin);
    await enrol(enrolled);
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  test("shows who has a second factor and who must, and offers the reset only to the enrolled", async ({ page, context }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: portal.url, httpOnly: true, sameSite: "Lax" }]);
    await page.goto(`${portal.url}/admin-panel`);
    await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
    await expect(page.getByRole("columnheader", { name: "Duas etapas" })).toBeVisible();
    const rowOf = (user: TestUser) => page.getByRole("row", { name: new RegExp(user.email) });
    await expect(rowOf(admin)).toContainText("AtivaObrigatória");
    await expect(rowOf(enrolled)).toContainText("AtivaOpcional");
    await expect(rowOf(pending)).toContainText("Não ativaObrigatória");
    const resetOf = (user: TestUser) => page.getByRole("button", { name: `Redefinir verificação em duas etapas de ${user.email}` });
    await expect(resetOf(pending)).toHaveCount(0);

    await resetOf(enrolled).click();
    await page.getByRole("button", { name: "Redefinir", exact: true }).click();
    await expect(page.getByText("Verificação em duas etapas redefinida")).toBeVisible();
    await expect(rowOf(enrolled)).toContainText("Não ativaOpcional");
    await expect(resetOf(enrolled)).toHaveCount(0);
    await expect(page.getByText("Erro ao redefinir a verificação")).toHaveCount(0);
  });

  // One test per width and theme: four axe runs in one test outlast its time on a loaded machine.
  for (const width of [1280, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      test(`the users tab with the two-factor column has no serious axe finding (${width} px, ${colorScheme})`, async ({
        page,
        context,
      }) => {
        await context.addCookies([{ name: SESSION_COOKIE, value: admin.token, url: portal.url, httpOnly: true, sameSite: "Lax" }]);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await page.goto(`${portal.url}/admin-panel`);
        await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
        await expect(page.getByRole("columnheader", { name: "Duas etapas" })).toBeVisible();
        await expect(page.getByText("Obrigatória").first()).toBeVisible();
        const results = await new AxeBuilder({ page }).include('[role="tabpanel"]').withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
        const blocking = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
        expect(blocking.map((violation) => violation.id)).toEqual([]);
      });
    }
  }
});
