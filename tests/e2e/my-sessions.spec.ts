import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createSession } from "../../src/lib/server/sessions/session";
import { expect, test, e2eDb } from "./fixtures";

const FIREFOX_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

test("two browsers: both sessions listed, the current one marked; ending the other sends it to /auth", async ({
  page,
  loginAs,
  browser,
  baseURL,
}) => {
  const user = await loginAs(["visualizador"]);
  // A second browser (another person's laptop, say) signed in as the same user.
  const other = await browser.newContext({ userAgent: FIREFOX_ON_LINUX });
  const { token } = await createSession(e2eDb(), user.id, { ipAddress: "127.0.0.1", userAgent: FIREFOX_ON_LINUX });
  await other.addCookies([{ name: SESSION_COOKIE, value: token, url: baseURL!, httpOnly: true, sameSite: "Lax" }]);
  const otherPage = await other.newPage();
  await otherPage.goto("/faq");
  await expect(otherPage).toHaveURL(/\/faq$/);

  await page.goto("/");
  await page.getByLabel("Conta", { exact: true }).click();
  await page.getByRole("link", { name: "Minhas sessões" }).click();
  await expect(page).toHaveURL(/\/conta\/sessoes$/);
  const sessions = page.getByRole("list", { name: "Sessões ativas" }).getByRole("listitem");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: "Esta sessão" })).toHaveCount(1);
  const firefox = sessions.filter({ hasText: "Firefox 128 em Linux" });
  await expect(firefox).toContainText("IP 127.0.0.1");
  await firefox.getByRole("button", { name: "Encerrar sessão" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sessão encerrada." })).toBeVisible();
  await expect(sessions).toHaveCount(1);

  await otherPage.goto("/faq");
  await expect(otherPage).toHaveURL(/\/auth\?next=%2Ffaq$/);
  await other.close();
});
