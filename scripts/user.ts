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

function fail(message: string): never {
  console.error(`Erro: ${message}`);
  process.exit(1);
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

  if (command === "add") {
    const email = emailField.safeParse(values.email ?? "");
    if (!email.success) fail(MESSAGES.email);
    const name = fullNameField.safeParse(values.name ?? "");
    if (!name.success) fail(name.error.issues[0]?.message ?? MESSAGES.name);
    if (!passwordField.safeParse(values.password ?? "").success) fail(MESSAGES.password);
    if (isCommonPassword(values.password!)) fail(COMMON_PASSWORD_MESSAGE);
    const result = await createUser(
      db,
      { email: email.data, fullName: name.data, password: values.password!, roleNames: values.role ?? [], confirmed: true },
      ({ email, fullName, roles }) => [
        { actionType: "admin_user_created", result: "success", details: { via: "cli", email, full_name: fullName, roles } },
      ],
    );
    if (!result.ok) {
      if (result.error === "email_taken") fail(`já existe um usuário com o e-mail ${email.data}`);
      fail(`perfil desconhecido: ${result.detail}`);
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
