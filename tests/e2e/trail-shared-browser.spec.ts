import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

const trailEntries = (page: import("@playwright/test").Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith("b1-trilha:"))
      .map((key) => `${key}=${localStorage.getItem(key)}`),
  );

test("two people on one browser never see or save each other's trail", async ({ page, context, baseURL, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/trilha-interativa");
  await (await hydrated(page.getByLabel("Nome do projeto"))).fill("Projeto secreto da Ana");
  await page.getByLabel("Qual problema estamos resolvendo e para quem?").fill("Resposta confidencial da Ana");
  await page.waitForTimeout(800);

  // Bruno takes over the browser without Ana signing out (her cookie simply replaced).
  const bruno = await createTestUser(e2eDb(), ["visualizador"]);
  await context.addCookies([{ name: SESSION_COOKIE, value: bruno.token, url: baseURL! }]);
  await page.goto("/trilha-interativa");
  await hydrated(page.getByLabel("Nome do projeto"));
  await page.waitForTimeout(800);
  await expect(page.getByLabel("Nome do projeto")).toHaveValue("");
  await expect(page.getByLabel("Qual problema estamos resolvendo e para quem?")).toHaveValue("");
  expect((await trailEntries(page)).join("\n")).not.toContain("Ana");
  const saved = (await (await page.request.get("/api/trail")).json()) as { trail: unknown };
  expect(JSON.stringify(saved.trail ?? {})).not.toContain("Ana");

  // Bruno writes his own, then signs out with 'Sair': nothing of his stays in the browser.
  await page.getByLabel("Nome do projeto").fill("Projeto do Bruno");
  await page.waitForTimeout(800);
  await page.locator('summary[aria-label="Conta"]').click();
  await page.getByRole("button", { name: "Sair" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await trailEntries(page)).toEqual([]);
});
