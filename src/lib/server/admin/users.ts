/**
 * The admin domain: what the Painel Administrativo changes and reads — users (users.ts), the
 * paged user list with its search (user-list.ts), roles and their page permissions (roles.ts) and
 * the access matrix (access-matrix.ts). Each change is one transaction with its audit row; the
 * last-admin rule holds under the admin-changes lock. Results are values (result.ts), never throws.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../db/schema/index.ts";
import type { CreateUserBody, UpdateUserBody } from "../../admin/forms.ts";
import { DOMAIN_MESSAGE, isAllowedEmail } from "../auth/allowed-email.ts";
import { writeAuditLog, type AuditEntry } from "../audit/audit.ts";
import { refuse as fail, type Actor, type AdminResult } from "./result.ts";
import { holdLock } from "../data/dialect.ts";
import type { Db, Tx } from "../data/db.ts";
import { createUser, normalizeEmail, roleNamesOf } from "../auth/user.ts";

/** A user created without a role gets Visualizador, as the panel's notes promise. */
const DEFAULT_ROLES = ["visualizador"];

async function adminCount(tx: Tx): Promise<number> {
  return (
    await tx
      .select({ n: sql<number>`count(*)` })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(roles.name, "admin"))
  )[0]!.n;
}

function roleAudits(actor: Actor, email: string, added: string[], removed: string[]): AuditEntry[] {
  return [
    ...added.map((role) => ({
      ...actor,
      actionType: "admin_role_assigned" as const,
      result: "success" as const,
      details: { user_email: email, role },
    })),
    ...removed.map((role) => ({
      ...actor,
      actionType: "admin_role_removed" as const,
      result: "success" as const,
      details: { user_email: email, role },
    })),
  ];
}

export async function createUserAsAdmin(db: Db, body: CreateUserBody, actor: Actor): Promise<AdminResult<{ id: string }>> {
  const email = normalizeEmail(body.email);
  if (!isAllowedEmail(email)) return fail(400, DOMAIN_MESSAGE, "email");
  const result = await createUser(
    db,
    { email, fullName: body.fullName, password: body.password, roleNames: body.roles.length ? body.roles : DEFAULT_ROLES, confirmed: true },
    (created) => [
      {
        ...actor,
        actionType: "admin_user_created",
        result: "success",
        details: { email, full_name: created.fullName, roles: created.roles },
      },
      ...roleAudits(actor, email, created.roles, []),
    ],
  );
  if (!result.ok) {
    return result.error === "email_taken"
      ? fail(409, "Já existe um usuário com este e-mail", "email")
      : fail(400, `Perfil desconhecido: ${result.detail}`, "roles");
  }
  return { ok: true, value: { id: result.userId } };
}

/** Name + full replacement of the user's roles, one transaction; self-demotion and last-admin guarded. */
export async function updateUserAsAdmin(db: Db, userId: string, body: UpdateUserBody, actor: Actor): Promise<AdminResult> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "admin-changes");
    const user = (await tx.select().from(users).where(eq(users.id, userId)))[0];
    if (!user) return fail(404, "Usuário não encontrado");
    const wanted = [...new Set(body.roles)].sort();
    const found = wanted.length ? await tx.select().from(roles).where(inArray(roles.name, wanted)) : [];
    const missing = wanted.filter((name) => !found.some((role) => role.name === name));
    if (missing.length) return fail(400, `Perfil desconhecido: ${missing.join(", ")}`, "roles");
    const before = await roleNamesOf(tx, userId);
    const losesAdmin = before.includes("admin") && !wanted.includes("admin");
    if (losesAdmin && userId === actor.userId) return fail(400, "Você não pode remover o seu próprio perfil de administrador", "roles");
    if (losesAdmin && (await adminCount(tx)) <= 1)
      return fail(400, "O último administrador não pode perder o perfil de administrador", "roles");
    if (user.provisionedAt !== null && body.fullName !== user.fullName) {
      return fail(400, "O nome desta conta vem do diretório da empresa (SCIM) e só pode ser alterado lá.", "fullName");
    }

    await tx.update(users).set({ fullName: body.fullName }).where(eq(users.id, userId));
    const added = wanted.filter((role) => !before.includes(role));
    const removed = before.filter((role) => !wanted.includes(role));
    // Only the difference is written, so a kept role keeps its source (a role mapped by SSO stays `oidc`).
    const removedIds = removed.length
      ? (await tx.select({ id: roles.id }).from(roles).where(inArray(roles.name, removed))).map((role) => role.id)
      : [];
    if (removedIds.length) {
      await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), inArray(userRoles.roleId, removedIds)));
    }
    for (const role of found) if (added.includes(role.name)) await tx.insert(userRoles).values({ userId, roleId: role.id });
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_user_updated",
      result: "success",
      details: {
        user_email: user.email,
        before: { full_name: user.fullName, roles: before },
        after: { full_name: body.fullName, roles: wanted },
      },
    });
    for (const entry of roleAudits(actor, user.email, added, removed)) await writeAuditLog(tx, entry);
    return { ok: true, value: undefined };
  });
}

/** Deletes a user (sessions go with them; audit rows stay). Never oneself, never the last admin. */
export async function deleteUserAsAdmin(db: Db, userId: string, actor: Actor): Promise<AdminResult> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "admin-changes");
    const user = (await tx.select().from(users).where(eq(users.id, userId)))[0];
    if (!user) return fail(404, "Usuário não encontrado");
    if (userId === actor.userId) return fail(400, "Você não pode excluir a sua própria conta");
    const held = await roleNamesOf(tx, userId);
    if (held.includes("admin") && (await adminCount(tx)) <= 1) return fail(400, "O último administrador não pode ser excluído");
    await tx.delete(users).where(and(eq(users.id, userId)));
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_user_deleted",
      result: "success",
      details: { email: user.email, full_name: user.fullName, roles: held },
    });
    return { ok: true, value: undefined };
  });
}
