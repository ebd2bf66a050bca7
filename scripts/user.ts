/**
 * User administration from the command line:
 *   npm run user -- add --email E --name "N" --password P --role admin [--role lider …]
 *   npm run user -- list
 *   npm run user -- remove --email E
 *   npm run user -- sso-unlink --email E
 */
import { parseArgs } from "node:util";
import { emailField, passwordField, fullNameField, MESSAGES } from "../src/lib/auth/schemas.ts";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "../src/lib/server/auth/password/common.ts";
import { closeDatabase, getDb, getMigratedDb } from "../src/lib/server/data/db.ts";
import { seedDatabase } from "../src/lib/server/data/seed.ts";
import { createUser, deleteUserByEmail, listUsersWithRoles, unlinkSsoIdentity } from "../src/lib/server/auth/user.ts";
import { isAllowedEmail, isAllowListEmpty } from "../src/lib/server/auth/allowed-email.ts";
import { listRoles } from "../src/lib/server/admin/roles.ts";
import { config } from "../src/lib/server/config/config.ts";
import { writerKeyRefusal } from "../src/lib/server/audit/without-key.ts";

function fail(message: string): never {
  console.error(`Erro: ${message}`);
  process.exit(1);
}

/** Why an address could never sign in under this terminal's allow-list (the server's must be the same), or null. */
function allowListRefusal(email: string): string | null {
  const { allowedDomains, allowedEmails } = config();
  if (isAllowListEmpty()) {
    return (
      "AUTH_ALLOWED_DOMAINS e AUTH_ALLOWED_EMAILS estão vazias: assim ninguém consegue entrar no portal. " +
      "Exporte aqui os mesmos valores do servidor (com scripts/start.sh: export AUTH_ALLOWED_DOMAINS=b1.example.com,b1.example.com.br,semente.example.org) " +
      "e rode o comando de novo."
    );
  }
  if (isAllowedEmail(email)) return null;
  const shown = (values: string[]) => values.join(",") || "vazia";
  return (
    `o e-mail ${email} não poderia entrar no portal: o domínio ${email.slice(email.lastIndexOf("@") + 1)} não está em ` +
    `AUTH_ALLOWED_DOMAINS (${shown(allowedDomains)}) nem o endereço em AUTH_ALLOWED_EMAILS (${shown(allowedEmails)}). ` +
    "Use um e-mail autorizado ou inclua-o nessas variáveis, aqui e no servidor."
  );
}

const USAGE = `Uso:
  npm run user -- add --email E --name "Nome" --password SENHA --role admin [--role lider …]
  npm run user -- list
  npm run user -- remove --email E
  npm run user -- sso-unlink --email E   (o próximo login corporativo com este e-mail vincula a conta de novo)`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      role: { type: "string", multiple: true },
    },
    strict: true,
  });
  const db = await getMigratedDb();
  await seedDatabase(db);
  if (command === "add" || command === "remove" || command === "sso-unlink") {
    const refusal = await writerKeyRefusal(db);
    if (refusal) fail(refusal);
  }

  if (command === "add") {
    const email = emailField.safeParse(values.email ?? "");
    if (!email.success) fail(MESSAGES.email);
    const name = fullNameField.safeParse(values.name ?? "");
    if (!name.success) fail(name.error.issues[0]?.message ?? MESSAGES.name);
    if (!passwordField.safeParse(values.password ?? "").success) fail(MESSAGES.password);
    if (isCommonPassword(values.password!)) fail(COMMON_PASSWORD_MESSAGE);
    const refusal = allowListRefusal(email.data);
    if (refusal) fail(refusal);
    const result = await createUser(
      db,
      { email: email.data, fullName: name.data, password: values.password!, roleNames: values.role ?? [], confirmed: true },
      ({ email, fullName, roles }) => [
        { actionType: "admin_user_created", result: "success", details: { via: "cli", email, full_name: fullName, roles } },
      ],
    );
    if (!result.ok) {
      if (result.error === "email_taken") fail(`já existe um usuário com o e-mail ${email.data}`);
      const known = await listRoles(db);
      const names = (system: boolean) => known.filter((role) => role.isSystem === system).map((role) => role.name);
      fail(
        `perfil desconhecido: ${result.detail}. Perfis válidos — do sistema: ${names(true).join(", ")}; customizados: ${names(false).join(", ") || "nenhum"}.`,
      );
    }
    console.log(`Usuário criado: ${email.data} (${(values.role ?? []).join(", ") || "sem perfil"})`);
    return;
  }
  if (command === "list") {
    for (const user of await listUsersWithRoles(db)) {
      console.log(`${user.email}\t${user.fullName || "N/A"}\t${user.roles.join(", ") || "-"}`);
    }
    return;
  }
  if (command === "remove") {
    if (!values.email) fail("informe --email");
    if (!(await deleteUserByEmail(db, values.email))) fail(`usuário não encontrado: ${values.email}`);
    console.log(`Usuário removido: ${values.email}`);
    return;
  }
  if (command === "sso-unlink") {
    if (!values.email) fail("informe --email");
    if (!(await unlinkSsoIdentity(db, values.email, "cli"))) fail(`usuário não encontrado ou sem vínculo corporativo: ${values.email}`);
    console.log(`Vínculo corporativo removido: ${values.email}`);
    return;
  }
  console.error(USAGE);
  process.exit(2);
}

main(process.argv.slice(2))
  .then(() => closeDatabase(getDb()))
  .catch((error: unknown) => {
    fail(error instanceof Error ? error.message : String(error));
  });
