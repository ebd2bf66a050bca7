import { closeDatabase, openDatabase, type Db } from "../../src/lib/server/data/db";
import { createDatabase, directUrl, onPostgres } from "./pg";
import { seedDatabase } from "../../src/lib/server/data/seed";
import { createSession } from "../../src/lib/server/sessions/session";
import { createUser } from "../../src/lib/server/auth/user";

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  /** A valid session token for this user. */
  token: string;
}

/** Creates a confirmed user through the app's own code path and opens a session for them. */
export async function createTestUser(db: Db, roles: string[], prefix = roles.join("-") || "sem-perfil"): Promise<TestUser> {
  counter += 1;
  const email = `${prefix}-${process.pid}-${Date.now()}-${counter}@b1.example.com`;
  const password = "Senha@Teste1";
  const fullName = `Teste ${prefix}`;
  const result = await createUser(db, { email, fullName, password, roleNames: roles, confirmed: true });
  if (!result.ok) throw new Error(`não foi possível criar usuário de teste: ${result.error}`);
  const { token } = await createSession(db, result.userId);
  return { id: result.userId, email, password, fullName, token };
}

/** A database as the server prepares it at start: migrated, then seeded (`file`: SQLite path or postgres URL). */
export async function openTestDatabase(file: string): Promise<Db> {
  const db = await openDatabase(file, { migrate: true });
  await seedDatabase(db);
  return db;
}

let template: Promise<string> | undefined;

/**
 * PostgreSQL pass: a new database of the caller's own, copied (CREATE DATABASE … TEMPLATE) from one that
 * this process migrated and seeded once, for openTestDatabase to open (its migration and seed checks then
 * find nothing to do); null on SQLite. Migrating each new database cost ~0.6 s here, the copy ~0.2 s.
 */
export async function freshSeededDatabaseUrl(): Promise<string | null> {
  if (!onPostgres) return null;
  template ??= createDatabase(process.env.TEST_PG_URL!).then(async (url) => {
    // Straight to the cluster: a pooler would keep server connections to the template, and a
    // database with connections cannot be copied.
    await closeDatabase(await openTestDatabase(directUrl(url)));
    return url;
  });
  template.catch(() => (template = undefined));
  return createDatabase(process.env.TEST_PG_URL!, await template);
}

/**
 * A test's own database: a fresh PostgreSQL database in the PostgreSQL pass of `npm test`, else
 * the SQLite file at `sqlitePath`; migrated and seeded. Returns where it is and the handle.
 */
export async function openOwnTestDatabase(sqlitePath: string): Promise<{ target: string; db: Db }> {
  const target = (await freshSeededDatabaseUrl()) ?? sqlitePath;
  return { target, db: await openTestDatabase(target) };
}
