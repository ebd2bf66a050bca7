import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema/index";
import { createCustomRole } from "../../../src/lib/server/admin/roles";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { openOwnTestDatabase } from "../../support/users";
import { scriptArgs } from "../../support/scripts";

let dir: string;
let db: Db;
let databaseEnv: Record<string, string>;

/** `npm run user -- …` as a process, with only the variables given here (no allow-list unless set). */
function cli(args: string[], env: Record<string, string> = {}) {
  const { AUTH_ALLOWED_DOMAINS: _domains, AUTH_ALLOWED_EMAILS: _emails, ...inherited } = process.env;
  const run = spawnSync(process.execPath, scriptArgs("scripts/user.ts", args), {
    env: { ...inherited, ...databaseEnv, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const add = (email: string, ...roles: string[]) => [
  "add",
  "--email",
  email,
  "--name",
  "Pessoa da CLI",
  "--password",
  "Jabuticaba@Azul7",
  ...roles.flatMap((role) => ["--role", role]),
];

async function userExists(email: string): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.email, email))).length > 0;
}

/** The allow-list scripts/start.sh exports when none is set. */
function startShDomains(): string {
  return /export AUTH_ALLOWED_DOMAINS="([^"]+)"/.exec(fs.readFileSync("scripts/start.sh", "utf8"))![1]!;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-cli-"));
  const own = await openOwnTestDatabase(path.join(dir, "db.sqlite"));
  db = own.db;
  databaseEnv = own.target.startsWith("postgres") ? { DATABASE_URL: own.target } : { DATABASE_PATH: own.target };
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run user -- add refuses an account that could never sign in", () => {
  it("an e-mail outside AUTH_ALLOWED_DOMAINS / AUTH_ALLOWED_EMAILS: exit ≠ 0, a Portuguese message naming both lists, no user", async () => {
    const run = cli(add("fora@outra.example", "admin"), {
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      AUTH_ALLOWED_EMAILS: "parceiro@example.net",
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain("Usuário criado");
    expect(run.stderr).toContain(
      "Erro: o e-mail fora@outra.example não poderia entrar no portal: o domínio outra.example não está em AUTH_ALLOWED_DOMAINS (b1.example.com) nem o endereço em AUTH_ALLOWED_EMAILS (parceiro@example.net).",
    );
    expect(await userExists("fora@outra.example")).toBe(false);
  });

  it("with both lists empty: exit ≠ 0, says nobody could sign in and what start.sh would export, no user", async () => {
    const run = cli(add("voce@b1.example.com", "admin"));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("AUTH_ALLOWED_DOMAINS e AUTH_ALLOWED_EMAILS estão vazias: assim ninguém consegue entrar no portal.");
    expect(run.stderr).toContain(`export AUTH_ALLOWED_DOMAINS=${startShDomains()}`);
    expect(await userExists("voce@b1.example.com")).toBe(false);
  });

  it("an address allowed one by one in AUTH_ALLOWED_EMAILS is created", async () => {
    const run = cli(add("parceiro@example.net", "visualizador"), { AUTH_ALLOWED_EMAILS: "parceiro@example.net" });
    expect(run.code, run.stderr).toBe(0);
    expect(await userExists("parceiro@example.net")).toBe(true);
  });
});

describe("npm run user -- add with an unknown role", () => {
  it("lists the valid roles, system and custom (from the database), and creates nobody", async () => {
    expect((await createCustomRole(db, { name: "revisor-cli", description: "Revisão", pagePaths: [] })).ok).toBe(true);
    const run = cli(add("gerente@b1.example.com", "gerente"), { AUTH_ALLOWED_DOMAINS: "b1.example.com" });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      "Erro: perfil desconhecido: gerente. Perfis válidos — do sistema: admin, lider, security, visualizador; customizados: revisor-cli.",
    );
    expect(await userExists("gerente@b1.example.com")).toBe(false);
  });
});

describe("the README's first-admin commands, with the allow-list scripts/start.sh uses", () => {
  const readme = fs.readFileSync("README.md", "utf8");
  const block = /## Primeiro administrador[\s\S]*?```bash\n([\s\S]*?)```/.exec(readme)![1]!;

  it("export the same list start.sh exports, and the add command creates the admin", async () => {
    const exported = /^export AUTH_ALLOWED_DOMAINS=(\S+)/m.exec(block)?.[1];
    expect(exported).toBe(startShDomains());
    const line = /^npm run user -- (add .*)$/m.exec(block)![1]!;
    const args = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
    const run = cli(args, { AUTH_ALLOWED_DOMAINS: exported! });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Usuário criado");
  });
});
