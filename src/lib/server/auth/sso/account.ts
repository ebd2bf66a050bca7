import { and, eq, isNull } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../../db/schema/index.ts";
import { isAllowedEmail } from "../allowed-email.ts";
import { PRIVILEGED_SYSTEM_ROLES, privilegedRole } from "../privileged.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Db, Tx } from "../../data/db.ts";
import { holdLock } from "../../data/dialect.ts";
import type { OidcSettings } from "../../config/oidc.ts";
import { deleteUnusedEmailTokens } from "../email-tokens.ts";
import { removePendingAccount } from "../pending-accounts.ts";
import { createAuditedSession, type SignInSession } from "../../sessions/session.ts";
import { newDeviceOf } from "../security-notices.ts";
import { readTwoFactorStatus } from "../two-factor/enrolment.ts";
import { startTwoFactorChallenge } from "../two-factor/sign-in.ts";
import { NO_PASSWORD } from "../user.ts";
import type { SsoIdentity } from "./claims.ts";
import { applyMappedRoles, mapRoleClaim } from "./roles.ts";

/** A session, or (second factor on file, none asserted by the provider) a pending challenge, as after a password. */
export type SsoAccountResult =
  | { ok: true; userId: string; email: string; session: SignInSession; newDevice: string | null }
  | { ok: true; userId: string; email: string; twoFactorChallenge: string }
  | { ok: false; code: "domain" | "conflict" | "deactivated" };

/** What the sign-in brings beside the identity: the TOTP key (null: second factor off) and where to go after it. */
export interface SsoSignInOptions {
  twoFactorKey: Buffer | null;
  nextPath: string;
}

type User = typeof users.$inferSelect;
type Opened = { user: User; changes: Partial<typeof users.$inferInsert>; details: Record<string, unknown> };
type Refused = { conflict: User; error: "linked_to_other_identity" | "email_held_by_other_account" };

/**
 * Opens the portal account of a provider identity and its session, in one transaction with their
 * audit rows (roles as in roles.ts): nothing of the sign-in stays if a row cannot be written. Under
 * the `accounts` lock, so parallel callbacks, a sign-up of the same address and the pending purge
 * each see the others' result. An account with a second factor gets a challenge instead of a
 * session, unless the provider asserted MFA in a claim the operator configured (claims.ts) and the
 * account was made by corporate sign-in and holds no admin or security role (providerMfaTrusted).
 * While the challenge is pending, an identity not yet linked to the account changes nothing of it
 * (no link, e-mail, name or roles): the challenge carries the link, written with the session once
 * the code is right (linkAfterSecondFactor).
 */
export async function openSsoAccount(
  db: Db,
  settings: OidcSettings,
  identity: SsoIdentity,
  meta: RequestMeta,
  options: SsoSignInOptions,
): Promise<SsoAccountResult> {
  const { email } = identity;
  if (!isAllowedEmail(email)) {
    await writeAuditLog(db, { actionType: "sso_domain_refused", result: "failure", details: { email, error: "invalid_domain" }, ...meta });
    return { ok: false, code: "domain" };
  }
  return db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const found = await findAccount(tx, identity, Date.now());
    if ("conflict" in found) {
      await writeAuditLog(tx, {
        userId: found.conflict.id,
        actionType: "sso_identity_conflict",
        result: "failure",
        details: { email, issuer: identity.issuer, subject: identity.subject, error: found.error },
        ...meta,
      });
      return { ok: false, code: "conflict" } as const;
    }
    let user = found.user;
    if (user.deactivatedAt !== null) {
      await writeAuditLog(tx, {
        userId: user.id,
        actionType: "user_login_attempt",
        result: "blocked",
        details: { email, method: "sso", error: "account_deactivated" },
        ...meta,
      });
      return { ok: false, code: "deactivated" } as const;
    }
    const wanted = mapRoleClaim(identity.roleClaim, settings.roleMap);
    const needsCode = options.twoFactorKey !== null && (await readTwoFactorStatus(tx, user.id)).enrolled;
    const mfaTrusted = needsCode && identity.mfaAsserted && (await providerMfaTrusted(tx, user, wanted));
    if (needsCode && !mfaTrusted) {
      // Not linked yet: the identity has only passed the provider, so nothing of the account changes before the code.
      const pendingLink = found.changes.oidcSubject !== undefined;
      let held = await heldRoleNames(tx, user.id);
      if (!pendingLink) {
        user = await applyChanges(tx, user, found.changes, identity);
        held = await applyMappedRoles(tx, user, wanted, settings, meta);
      }
      const challenge = await startTwoFactorChallenge(
        tx,
        user.id,
        options.nextPath,
        Date.now(),
        pendingLink ? { issuer: identity.issuer, subject: identity.subject } : null,
      );
      await writeAuditLog(tx, {
        userId: user.id,
        actionType: "sso_second_factor_required",
        result: "success",
        details: {
          email,
          roles: held,
          issuer: identity.issuer,
          subject: identity.subject,
          mfa_claim: identity.mfaAsserted ? "not_trusted" : "not_asserted",
          ...found.details,
          ...(pendingLink ? { linked: false, link: "after_second_factor" } : {}),
        },
        ...meta,
      });
      return { ok: true, userId: user.id, email, twoFactorChallenge: challenge.token } as const;
    }
    user = await applyChanges(tx, user, found.changes, identity);
    const roles = await applyMappedRoles(tx, user, wanted, settings, meta);
    const newDevice = await newDeviceOf(tx, user.id, meta.userAgent);
    const session = await createAuditedSession(tx, user.id, { ...meta, authMethod: "sso" }, [
      {
        userId: user.id,
        actionType: "sso_login_success",
        result: "success",
        details: {
          email,
          roles,
          issuer: identity.issuer,
          subject: identity.subject,
          ...(mfaTrusted ? { mfa_claim: "trusted" } : {}),
          ...found.details,
        },
        ...meta,
      },
    ]);
    return { ok: true, userId: user.id, email, session, newDevice } as const;
  });
}

/** The account's row after the identity's changes (a new name from the provider among them). */
async function applyChanges(tx: Tx, user: User, changes: Opened["changes"], identity: SsoIdentity): Promise<User> {
  const all = { ...changes };
  if (identity.fullName && identity.fullName !== user.fullName) all.fullName = identity.fullName;
  if (Object.keys(all).length === 0) return user;
  return (await tx.update(users).set(all).where(eq(users.id, user.id)).returning())[0]!;
}

/** System roles whose holders never let the provider's claim stand for the portal's code. */

/** Pages only privileged roles open (the audit log): a custom role granted one is privileged too. */

async function heldRoleNames(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  return [...new Set(rows.map((row) => row.name))].sort();
}

/**
 * May the provider's MFA claim stand for the portal's code on this account? Only if corporate
 * sign-in made it (never the command line's emergency admin, a sign-up or the directory), and it
 * holds no admin or security role, from any source, nor a custom role opening a page only those
 * open, and the provider's groups are not about to give it one.
 */
async function providerMfaTrusted(tx: Tx, user: User, wanted: readonly string[]): Promise<boolean> {
  if (!user.createdBySso) return false;
  if (wanted.some((name) => PRIVILEGED_SYSTEM_ROLES.includes(name))) return false;
  const held = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, user.id), privilegedRole(tx)));
  return held.length === 0;
}

/**
 * Which account the identity opens. The one linked to its iss + sub, or else the one the directory
 * created (not one it adopted or an admin linked: `provisioned_at` is then later than `created_at`)
 * with `externalId` equal to the sub (linked now), whatever e-mail it had (it
 * takes the provider's new address; a pending sign-up holding that address is removed, a confirmed
 * account holding it is a conflict). Else the account with its e-mail, if linked to no other
 * identity (another sub or another issuer is a conflict, never a merge): linked now, and a pending
 * sign-up is confirmed by the provider, losing the password and links its unknown author chose.
 * Else a new confirmed account with no password.
 */
async function findAccount(tx: Tx, identity: SsoIdentity, now: number): Promise<Opened | Refused> {
  const { email, issuer, subject } = identity;
  const linkedBefore = (
    await tx
      .select()
      .from(users)
      .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)))
  )[0];
  const provisioned = linkedBefore
    ? undefined
    : (
        await tx
          .select()
          .from(users)
          .where(and(eq(users.externalId, subject), isNull(users.oidcIssuer), eq(users.provisionedAt, users.createdAt)))
      )[0];
  const linked = linkedBefore ?? provisioned;
  const link = provisioned ? { oidcIssuer: issuer, oidcSubject: subject } : {};
  const holder = (await tx.select().from(users).where(eq(users.email, email)))[0];

  if (linked) {
    const details = { created: false, ...(provisioned ? { linked: true, by: "external_id" } : {}) };
    if (holder?.id === linked.id) return { user: linked, changes: link, details };
    if (holder && holder.emailConfirmedAt !== null) return { conflict: holder, error: "email_held_by_other_account" };
    if (holder) await removePendingAccount(tx, holder, "address_claimed_by_sso");
    return { user: linked, changes: { ...link, email }, details: { ...details, previous_email: linked.email } };
  }
  if (holder) {
    if (holder.oidcIssuer !== null) return { conflict: holder, error: "linked_to_other_identity" };
    const newLink = { oidcIssuer: issuer, oidcSubject: subject };
    if (holder.emailConfirmedAt !== null) return { user: holder, changes: newLink, details: { created: false, linked: true } };
    await deleteUnusedEmailTokens(tx, holder.id, "email_confirmation");
    await deleteUnusedEmailTokens(tx, holder.id, "password_reset");
    return {
      user: holder,
      // The provider proved the address; the name, password and links the sign-up's author chose go.
      changes: { ...newLink, emailConfirmedAt: now, passwordHash: NO_PASSWORD, fullName: identity.fullName },
      details: { created: false, linked: true, pending_account: "password_discarded" },
    };
  }
  const created = await tx
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email,
      fullName: identity.fullName,
      passwordHash: NO_PASSWORD,
      emailConfirmedAt: now,
      oidcIssuer: issuer,
      oidcSubject: subject,
      createdBySso: true,
    })
    .returning();
  return { user: created[0]!, changes: {}, details: { created: true } };
}
