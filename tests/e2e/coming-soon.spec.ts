import { expect, test } from "./fixtures";
import { hydrated } from "./islands";

test("actions without an address say 'Em breve' where everyone sees it", async ({ page, loginAs }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAs(["visualizador"]);
  await page.goto("/playbook-produtos");
  const readAll = page.getByRole("button", { name: /^Ler tudo/ }).first();
  await expect(readAll).toHaveAccessibleName("Ler tudo Em breve");
  await expect(readAll.getByText("Em breve")).toBeVisible();
  await expect(readAll).toHaveAttribute("aria-disabled", "true");
  await expect(readAll).not.toHaveAttribute("title", /.*/);

  await page.goto("/templates");
  const download = (
    await hydrated(
      page
        .locator("#catalogo li")
        .filter({ hasText: "Lean Canvas" })
        .getByRole("button", { name: /^Baixar/ }),
    )
  ).first();
  await expect(download.getByText("Em breve")).toBeVisible();

  await page.goto("/sementezz");
  for (const name of ["Explore demandas", "Inscreva sua squad agora"]) {
    const action = page.getByRole("button", { name: new RegExp(name) });
    await expect(action).toBeDisabled();
    await expect(action.getByText("Em breve")).toBeVisible();
  }
  await expect(page.getByRole("list", { name: /Links do programa/ })).toBeVisible();
});
