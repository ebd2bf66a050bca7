import { eq } from "drizzle-orm";
import { emailTokens, users } from "../../db/schema/index";
import { SESSION_COOKIE } from "../../src/lib/server/sessions/session";
import { createSession } from "../../src/lib/server/sessions/session";
import { waitForLink, readMails } from "../support/mail";
import { e2eDb, expect, test } from "./fixtures";

const mailDir = () => process.env.E2E_MAIL_DIR!;
const unique = (name: string) => `${name}-${Date.now()}@b1.example.com`;
const toLocal = (link: string, baseURL: string) => link.replace(/^https?:\/\/[^/]+/, baseURL);

test("sign up → confirmation e-mail → link + sign-up password → confirmed, then sign in; sign-in before confirming shows the card", async ({
  page,
  baseURL,
}) => {
  const email = unique("cadastro");
  const password = "Senha@Nova1";
  await page.goto("/auth?mode=signup");
  await expect(page.getByText("Crie sua conta com e-mail corporativo autorizado")).toBeVisible();
  await page.getByLabel("Nome completo").fill("Clara Nunes");
  await page.getByLabel("E-mail corporativo").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByLabel("Confirmar senha").fill(password);
  await page.getByRole("button", { name: "Cadastrar-se" }).click();
  await expect(page.getByText("Cadastro realizado!")).toBeVisible();
  await expect(page.getByText("Acesse sua conta")).toBeVisible();
  // The link will ask for the password just chosen: the page says so before the person leaves for the mailbox.
  await expect(page.getByRole("status").filter({ hasText: "Falta confirmar o e-mail" })).toContainText(
    "digite a senha que você acabou de criar",
  );

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("E-mail não confirmado")).toBeVisible();
  await expect(page.getByText("Você precisa confirmar seu e-mail antes de fazer login.", { exact: false })).toBeVisible();

  const link = await waitForLink(mailDir(), email, "/api/auth/confirm");
  await page.goto(toLocal(link, baseURL!));
  await expect(page.getByText("Para ativar a conta, digite a senha que você criou no cadastro.")).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill("Senha@Errada9");
  await page.getByRole("button", { name: "Confirmar e-mail" }).click();
  await expect(page.getByText("Senha incorreta. Digite a senha que você criou no cadastro.")).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirmar e-mail" }).click();
  await expect(page).toHaveURL(/\/auth\?confirmed=1$/);
  await expect(page.getByText("E-mail confirmado!")).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByLabel("Conta", { exact: true })).toBeVisible();
  await page.goto("/faq");
  await expect(page).toHaveURL(/\/faq$/);
});

test("sign in with the form lands on the requested page after a full load", async ({ page, loginAs, context }) => {
  const user = await loginAs(["visualizador"]);
  await context.clearCookies();
  await page.goto("/templates");
  await expect(page).toHaveURL(/\/auth\?next=%2Ftemplates/);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha", { exact: true }).fill("Senha@Errada9");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("E-mail ou senha incorretos. Verifique suas credenciais e tente novamente.")).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/templates$/);
});

test("reset → e-mail → new password: the old one fails, the new one works, other sessions ended", async ({
  page,
  browser,
  loginAs,
  baseURL,
}) => {
  const user = await loginAs(["visualizador"]);
  const other = await browser.newContext();
  await other.addCookies([{ name: SESSION_COOKIE, value: (await createSession(e2eDb(), user.id)).token, url: baseURL! }]);
  const otherPage = await other.newPage();
  await otherPage.goto(`${baseURL}/faq`);
  await expect(otherPage).toHaveURL(/\/faq$/);
  await page.context().clearCookies();

  await page.goto("/auth");
  await page.getByRole("button", { name: "Esqueci minha senha" }).click();
  await expect(page.getByText("Digite seu e-mail para receber o link de recuperação")).toBeVisible();
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Recuperar Senha" }).click();
  await expect(page).toHaveURL(/\/confirmation-sent\?type=password-reset$/);
  await expect(page.getByRole("heading", { name: "Link Enviado" })).toBeVisible();

  const link = await waitForLink(mailDir(), user.email, "mode=update-password");
  await page.goto(toLocal(link, baseURL!));
  await expect(page.getByText("Defina sua nova senha")).toBeVisible();
  const fresh = "Trocada@2026";
  await page.getByLabel("Nova senha", { exact: true }).fill(fresh);
  await page.getByLabel("Confirmar nova senha").fill(fresh);
  await page.getByRole("button", { name: "Nova Senha" }).click();
  await expect(page.getByText("Acesse sua conta")).toBeVisible();

  await otherPage.goto(`${baseURL}/faq`);
  await expect(otherPage).toHaveURL(/\/auth\?next=%2Ffaq$/);
  await other.close();

  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("E-mail ou senha incorretos.", { exact: false })).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill(fresh);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
});

test("an expired link lands on /link-expired, which sends a new one", async ({ page, baseURL }) => {
  const email = unique("expirado");
  await page.request.post("/api/auth/sign-up", {
    data: { fullName: "Davi Lopes", email, password: "Senha@Davi1", confirmPassword: "Senha@Davi1" },
    headers: { origin: baseURL! },
  });
  const link = await waitForLink(mailDir(), email, "/api/auth/confirm");
  const user = (await e2eDb().select().from(users).where(eq(users.email, email)))[0]!;
  await e2eDb()
    .update(emailTokens)
    .set({ expiresAt: Date.now() - 1000 })
    .where(eq(emailTokens.userId, user.id));
  await page.goto(toLocal(link, baseURL!));
  await expect(page).toHaveURL(/\/link-expired/);
  await expect(page.getByRole("heading", { name: "Link Expirado" })).toBeVisible();
  await page.getByRole("button", { name: "Solicitar Novo Link" }).click();
  await expect(page.getByText("Campo obrigatório")).toBeVisible();
  await page.getByLabel("E-mail").fill("alguem@dominio-estranho.com");
  await page.getByRole("button", { name: "Solicitar Novo Link" }).click();
  await expect(page.getByText("E-mail não autorizado")).toBeVisible();
  await expect(page.getByText("Use um e-mail corporativo válido.")).toBeVisible();
  const before = readMails(mailDir(), email).length;
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Solicitar Novo Link" }).click();
  await expect(page).toHaveURL(/\/confirmation-sent\?type=email-confirmation$/);
  await expect(page.getByRole("heading", { name: "Confirmação Reenviada" })).toBeVisible();
  await waitForLink(mailDir(), email, "/api/auth/confirm", 10_000, before);
});

test("every validation message of the forms appears for bad input", async ({ page }) => {
  await page.goto("/auth?mode=signup");
  await page.getByRole("button", { name: "Cadastrar-se" }).click();
  await expect(page.getByText("Nome deve ter pelo menos 2 caracteres")).toBeVisible();
  await expect(page.getByText("E-mail inválido")).toBeVisible();
  await expect(
    page.getByText("Senha deve ter pelo menos 8 caracteres, incluindo maiúscula, minúscula, número e caractere especial"),
  ).toBeVisible();
  await page.getByLabel("Senha", { exact: true }).fill("Senha@123");
  await page.getByLabel("Confirmar senha").fill("Senha@124");
  await expect(page.getByText("Senhas não conferem")).toBeVisible();
  // Re-validated on change: fixing the name removes its error without submitting.
  await page.getByLabel("Nome completo").fill("Li");
  await expect(page.getByText("Nome deve ter pelo menos 2 caracteres")).toHaveCount(0);

  await page.getByRole("button", { name: "Já tem uma conta? Entrar" }).click();
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("E-mail inválido")).toBeVisible();
  await expect(page.getByText("Senha é obrigatória")).toBeVisible();

  await page.getByRole("button", { name: "Esqueci minha senha" }).click();
  await page.getByRole("button", { name: "Recuperar Senha" }).click();
  await expect(page.getByText("E-mail inválido")).toBeVisible();
  await page.getByLabel("E-mail").fill("x@fora-do-dominio.com");
  await page.getByRole("button", { name: "Recuperar Senha" }).click();
  await expect(
    page.getByText("E-mail deve ser de um domínio autorizado. Entre em contato com o administrador se necessário."),
  ).toBeVisible();

  await page.goto("/auth?mode=update-password&token=abc");
  await page.getByRole("button", { name: "Nova Senha" }).click();
  await expect(page.getByText("Senha deve ter pelo menos 8 caracteres", { exact: false })).toBeVisible();

  await page.goto("/signup-error?error=email_taken");
  await expect(page.getByRole("heading", { name: "E-mail Já Cadastrado" })).toBeVisible();
  await page.goto("/signup-error?error=invalid_domain");
  await expect(page.getByRole("heading", { name: "E-mail Não Autorizado" })).toBeVisible();
  await page.goto("/signup-error");
  await expect(page.getByRole("heading", { name: "Erro no Cadastro" })).toBeVisible();
});

test("show/hide toggles reveal the password", async ({ page }) => {
  await page.goto("/auth");
  const field = page.getByLabel("Senha", { exact: true });
  await field.fill("Segredo@1");
  await expect(field).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Mostrar senha" }).click();
  await expect(field).toHaveAttribute("type", "text");
});
