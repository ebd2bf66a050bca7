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
  await expect(page.getByLabel("Conta")).toBeVisible();
  expect(leftPortal).toEqual([]);
});
