import { createSession, SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createTestUser } from "../support/users";
import { e2eDb, expect, test } from "./fixtures";
import { hydrated } from "./islands";

const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

test("the directory deactivates a person: their open page goes to /auth at the next navigation", async ({ page, loginAs, request }) => {
  const user = await loginAs(["visualizador"]);
  await page.goto("/faq");
  await expect(page).toHaveURL(/\/faq$/);

  const auth = { authorization: `Bearer ${process.env.E2E_SCIM_TOKEN}` };
  const found = await request.get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${user.email}"`)}`, { headers: auth });
  expect(found.status()).toBe(200);
  const id = (await found.json()).Resources[0].id as string;
  // An account made in the portal is the directory's only once an administrator links it in the panel.
  const admin = await createTestUser(e2eDb(), ["admin"], "admin-vinculo");
  const { token } = await createSession(e2eDb(), admin.id, { authMethod: "two_factor" });
  const linked = await request.post(`/api/admin/users/${id}/directory`, {
    headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: new URL(page.url()).origin },
  });
  expect(linked.status()).toBe(200);
  const off = await request.patch(`/scim/v2/Users/${id}`, {
    headers: { ...auth, "content-type": "application/scim+json" },
    data: { schemas: [PATCH], Operations: [{ op: "Replace", path: "active", value: "False" }] },
  });
  expect(off.status()).toBe(200);

  // The page still shows; the next click in it is refused and lands on the sign-in page.
  await page.getByRole("link", { name: "Glossário" }).first().click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fglossario$/);
});

test("an administrator links an account made in the portal to the directory from the users tab", async ({ page, loginAs }) => {
  const person = await createTestUser(e2eDb(), ["visualizador"], "vincular-painel");
  await loginAs(["admin"]);
  await page.goto("/admin-panel");
  await (await hydrated(page.getByRole("tab", { name: "Usuários" }))).click();
  await page.getByPlaceholder("Buscar usuários...").fill(person.email);
  const row = page.getByRole("row", { name: new RegExp(person.email) });
  await expect(row).not.toContainText("Diretório");
  await page.getByRole("button", { name: `Vincular ${person.email} ao diretório` }).click();
  await page.getByRole("button", { name: "Vincular", exact: true }).click();
  await expect(page.getByText("Conta vinculada ao diretório")).toBeVisible();
  await expect(row).toContainText("Diretório");
  await expect(page.getByRole("button", { name: `Vincular ${person.email} ao diretório` })).toHaveCount(0);

  // Deleting an account the directory manages says what the directory will do, and where access really ends.
  await page.getByRole("button", { name: `Excluir ${person.email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Excluir usuário" });
  await expect(dialog).toContainText("Tem certeza que deseja excluir este usuário?");
  await expect(dialog).toContainText("gerida pelo diretório da empresa");
  await expect(dialog).toContainText("cria de novo na próxima sincronização");
  await expect(dialog).toContainText("desative ou remova a pessoa no diretório");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(row).toBeVisible();
});
