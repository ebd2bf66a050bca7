import { and, eq, isNull } from "drizzle-orm";
import { users } from "../../../../../db/schema/index.ts";
import { isAllowedEmail } from "../allowed-email.ts";
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
 * session unless the provider asserted MFA (claims.ts): the provider's word alone is not the code.
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
    if (identity.fullName && identity.fullName !== user.fullName) found.changes.fullName = identity.fullName;
    if (Object.keys(found.changes).length) {
      user = (await tx.update(users).set(found.changes).where(eq(users.id, user.id)).returning())[0]!;
    }
    const roles = await applyMappedRoles(tx, user, mapRoleClaim(identity.roleClaim, settings.roleMap), settings, meta);
    if (!identity.mfaAsserted && options.twoFactorKey && (await readTwoFactorStatus(tx, user.id)).enrolled) {
      const challenge = await startTwoFactorChallenge(tx, user.id, options.nextPath);
      await writeAuditLog(tx, {
        userId: user.id,
        actionType: "sso_second_factor_required",
        result: "success",
        details: { email, roles, issuer: identity.issuer, subject: identity.subject, ...found.details },
        ...meta,
      });
      return { ok: true, userId: user.id, email, twoFactorChallenge: challenge.token } as const;
    }
    const newDevice = await newDeviceOf(tx, user.id, meta.userAgent);
    const session = await createAuditedSession(tx, user.id, { ...meta, authMethod: "sso" }, [
      {
        userId: user.id,
        actionType: "sso_login_success",
        result: "success",
        details: { email, roles, issuer: identity.issuer, subject: identity.subject, ...found.details },
        ...meta,
      },
    ]);
    return { ok: true, userId: user.id, email, session, newDevice } as const;
  });
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
    })
    .returning();
  return { user: created[0]!, changes: {}, details: { created: true } };
}
