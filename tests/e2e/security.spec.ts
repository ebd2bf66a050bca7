import { test, expect } from "./fixtures";

test("an attacker's sign-in link with next=/.//evil.example lands on the portal, not on evil.example", async ({
  page,
  loginAs,
  context,
  baseURL,
}) => {
  const user = await loginAs(["visualizador"]);
  await context.clearCookies();
  const leftPortal: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).hostname === "evil.example") leftPortal.push(request.url());
  });
  await page.goto("/auth?next=/.//evil.example");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByLabel("Conta", { exact: true })).toBeVisible();
  expect(leftPortal).toEqual([]);
});

test("every page runs under its CSP with no violation: islands hydrate, search loads its WebAssembly", async ({ page, loginAs }) => {
  await loginAs(["admin"]);
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  for (const path of ["/", "/templates", "/trilha-interativa", "/faq", "/glossario", "/admin-panel", "/audit-logs", "/comite-ia"]) {
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"], path).toContain("script-src 'self'");
    await page.waitForLoadState("networkidle");
  }
  // Search (Pagefind compiles WebAssembly under 'wasm-unsafe-eval').
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/faq");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Buscar no portal" });
  await dialog.getByRole("combobox", { name: "Buscar no portal" }).fill("wireframe");
  await expect(dialog.getByRole("option").first()).toContainText("Glossário");
  expect(violations).toEqual([]);
});
