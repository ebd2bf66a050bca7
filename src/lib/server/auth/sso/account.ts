import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../../db/schema/index.ts";
import { isAllowedEmail } from "../allowed-email.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Db } from "../../data/db.ts";
import type { OidcSettings } from "../../config/oidc.ts";
import { hashPassword } from "../password/hash.ts";
import { normalizeEmail } from "../user.ts";

export const DEFAULT_SSO_ROLE = "visualizador";

export type SsoAccountResult = { ok: true; userId: string; email: string } | { ok: false; code: "email" | "domain" };

/** Portal roles named by the role claim's values (an array, or one string) through `OIDC_ROLE_MAP`. */
export function mapRoleClaim(claim: unknown, roleMap: OidcSettings["roleMap"]): string[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? [claim] : [];
  const mapped = values.flatMap((value) => (typeof value === "string" ? (roleMap.get(value) ?? []) : []));
  return [...new Set(mapped)].sort();
}

/** `name`, else given + family name; empty when the provider sends neither. */
export function fullNameFromClaims(claims: Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const name = text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ");
  return name.slice(0, 200);
}

/**
 * Finds or creates the portal user for verified claims and applies the mapped roles, in one
 * transaction with its audit rows. Roles from the provider are stored with source `oidc` and
 * replaced at every sign-in; roles given by hand (`manual`) are never touched. A user left with
 * no role at all gets Visualizador, as an `oidc` role.
 */
export async function upsertSsoAccount(
  db: Db,
  settings: OidcSettings,
  claims: Record<string, unknown>,
  meta: RequestMeta,
): Promise<SsoAccountResult> {
  const rawEmail = typeof claims.email === "string" ? claims.email : "";
  const email = normalizeEmail(rawEmail);
  if (!email || claims.email_verified !== true) {
    await writeAuditLog(db, {
      actionType: "sso_email_unverified",
      result: "failure",
      details: { email: email || null, sub: claims.sub ?? null },
      ...meta,
    });
    return { ok: false, code: "email" };
  }
  if (!isAllowedEmail(email)) {
    await writeAuditLog(db, { actionType: "sso_domain_refused", result: "failure", details: { email, error: "invalid_domain" }, ...meta });
    return { ok: false, code: "domain" };
  }
  const fullName = fullNameFromClaims(claims);
  const wanted = mapRoleClaim(claims[settings.roleClaim], settings.roleMap);
  const exists = (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0];
  // SSO accounts get an unknown random password: only a reset link by e-mail can give them one.
  const unusableHash = exists ? null : await hashPassword(randomBytes(32).toString("base64url"));

  return db.transaction(async (tx) => {
    const now = Date.now();
    let user = (await tx.select().from(users).where(eq(users.email, email)))[0];
    const created = !user;
    if (!user) {
      user = (
        await tx
          .insert(users)
          .values({ id: crypto.randomUUID(), email, fullName, passwordHash: unusableHash ?? "", emailConfirmedAt: now })
          .returning()
      )[0]!;
    } else {
      const changes: Partial<typeof users.$inferInsert> = {};
      if (fullName && fullName !== user.fullName) changes.fullName = fullName;
      // The provider verified the address: a pending password sign-up is confirmed by it.
      if (user.emailConfirmedAt === null) changes.emailConfirmedAt = now;
      if (Object.keys(changes).length) await tx.update(users).set(changes).where(eq(users.id, user.id));
    }
    const userId = user.id;

    const held = await tx
      .select({ roleId: userRoles.roleId, name: roles.name, source: userRoles.source })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId));
    const manual = held.filter((role) => role.source === "manual").map((role) => role.name);
    const before = held
      .filter((role) => role.source === "oidc")
      .map((role) => role.name)
      .sort();
    const known = wanted.length ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, wanted)) : [];
    const unknown = wanted.filter((name) => !known.some((role) => role.name === name));
    if (unknown.length) console.warn(`[sso] OIDC_ROLE_MAP cita perfis inexistentes: ${unknown.join(", ")}`);
    let target = known.filter((role) => !manual.includes(role.name));
    if (target.length === 0 && manual.length === 0) {
      target = await tx.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.name, DEFAULT_SSO_ROLE));
    }
    const after = target.map((role) => role.name).sort();

    const dropped = held.filter((role) => role.source === "oidc" && !after.includes(role.name)).map((role) => role.roleId);
    if (dropped.length) {
      await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.source, "oidc"), inArray(userRoles.roleId, dropped)));
    }
    for (const role of target) {
      await tx.insert(userRoles).values({ userId, roleId: role.id, source: "oidc" }).onConflictDoNothing();
    }
    if (before.join(",") !== after.join(",")) {
      await writeAuditLog(tx, {
        userId,
        actionType: "sso_roles_updated",
        result: "success",
        details: { email, before, after, manual: manual.sort(), claim: settings.roleClaim },
        ...meta,
      });
    }
    await writeAuditLog(tx, {
      userId,
      actionType: "sso_login_success",
      result: "success",
      details: { email, created, roles: [...manual, ...after].sort() },
      ...meta,
    });
    return { ok: true, userId, email } as const;
  });
}
