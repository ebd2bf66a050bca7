import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Times are stored as UTC milliseconds since the epoch. */
const createdAt = () =>
  integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);

/** People who may sign in. E-mail is stored lower-cased. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    /** Full name (the spec's `profiles.full_name`); empty when unknown. */
    fullName: text("full_name").notNull().default(""),
    /** Argon2id PHC string. */
    passwordHash: text("password_hash").notNull(),
    /** When the address was confirmed; null blocks sign-in, and a sign-up left so for 7 days is purged. */
    emailConfirmedAt: integer("email_confirmed_at", { mode: "number" }),
    createdAt: createdAt(),
    /** The identity provider (`iss`) this account is linked to; null until its first corporate sign-in. */
    oidcIssuer: text("oidc_issuer"),
    /** The provider's `sub` for this person: corporate sign-in matches on issuer + subject, not on the e-mail. */
    oidcSubject: text("oidc_subject"),
    /**
     * When the company directory (SCIM) got this account: its name, e-mail and activity are then the directory's.
     * Equal to `createdAt` when the directory created it (only then does its `externalId` open it at corporate sign-in);
     * later when an administrator linked it or the directory adopted an account nobody made by hand.
     */
    provisionedAt: integer("provisioned_at", { mode: "number" }),
    /** The directory's `externalId` for this person; corporate sign-in opens this account when its `sub` equals it. */
    externalId: text("external_id"),
    /** When the directory deactivated the account (`active: false`): no sign-in of any kind, no session. */
    deactivatedAt: integer("deactivated_at", { mode: "number" }),
    /** JSON of the last User resource the directory sent (name parts, e-mails, extensions), echoed back as SCIM asks. */
    directoryResource: text("directory_resource"),
    /**
     * When the person's SCIM resource last changed (e-mail, name, external id, activity, the directory's attributes or
     * groups); null while unchanged since creation. Kept by triggers (migration 0016), whichever code path wrote.
     */
    resourceModifiedAt: integer("resource_modified_at", { mode: "number" }),
    /** Counts those changes: the resource's `meta.version` (a weak ETag) is built on it. Kept by the same triggers. */
    resourceVersion: integer("resource_version", { mode: "number" }).notNull().default(1),
    /** Set when the person unticked the weekly required-reading reminder in their account. */
    readingDigestOptOut: integer("reading_digest_opt_out", { mode: "boolean" }).notNull().default(false),
    /**
     * Made by a corporate sign-in (its first one): only such an account may let the provider's `amr`/`acr`
     * stand for the portal's second factor (OIDC_MFA_AMR/ACR). False for every other way and for accounts
     * older than the column.
     */
    createdBySso: integer("created_by_sso", { mode: "boolean" }).notNull().default(false),
  },
  (table) => [
    uniqueIndex("users_email_unique").on(table.email),
    uniqueIndex("users_oidc_identity_unique").on(table.oidcIssuer, table.oidcSubject),
    uniqueIndex("users_external_id_unique").on(table.externalId),
    index("users_pending_created_idx").on(table.emailConfirmedAt, table.createdAt),
    // The admin list's order (oldest first): a page is an index range, not a sort of every user.
    index("users_created_idx").on(table.createdAt, table.id),
    // The reading report's list walks people in e-mail order and skips inactive accounts without reading their rows.
    index("users_email_active_idx").on(table.email, table.id, table.emailConfirmedAt, table.deactivatedAt),
    // The directory's list (SCIM GET /Users, accounts it manages, oldest first): its count and the rows a
    // deep startIndex skips are read from this index alone, not from every user's row.
    index("users_provisioned_created_idx")
      .on(table.createdAt, table.id, table.provisionedAt)
      .where(sql`${table.provisionedAt} is not null`),
  ],
);

/** Lucia-guide sessions: the token is `<id>.<secret>`; only SHA-256(secret) is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastVerifiedAt: integer("last_verified_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** How the sign-in that opened it was made: the two-factor requirement asks for `two_factor` or `sso`. */
    authMethod: text("auth_method", { enum: ["password", "two_factor", "sso"] })
      .notNull()
      .default("password"),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

/**
 * Browsers that completed a full sign-in of an account (password and second factor, or SSO): the
 * cookie holds a random token, only SHA-256 of it is stored. Proof enough to be throttled apart
 * from strangers (throttle/flows.ts), never to sign in.
 */
export const rememberedDevices = sqliteTable(
  "remembered_devices",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "number" }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
  },
  (table) => [
    index("remembered_devices_user_idx").on(table.userId, table.createdAt),
    index("remembered_devices_expires_idx").on(table.expiresAt),
  ],
);

/** System roles (admin, lider, visualizador, security) and custom roles in one table. */
export const roles = sqliteTable(
  "roles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isSystem: integer("is_system", { mode: "boolean" }).notNull().default(false),
    /** A custom role whose holders (when all their roles are limited) open only the pages it grants, plus public ones. */
    accessLimited: integer("access_limited", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("roles_name_unique").on(table.name)],
);

export const userRoles = sqliteTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    /** `manual` (panel, CLI, sign-up), `oidc` (mapped at each SSO sign-in) or `directory` (mapped from SCIM groups). */
    source: text("source", { enum: ["manual", "oidc", "directory"] })
      .notNull()
      .default("manual"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] }), index("user_roles_role_idx").on(table.roleId)],
);

/** Registry of the portal's routes (seeded from src/lib/routes.ts). */
export const pages = sqliteTable(
  "pages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    path: text("path").notNull(),
    isSystemPage: integer("is_system_page", { mode: "boolean" }).notNull().default(true),
    /** Set from the admin panel: only the roles in page_audience open the page (the route table's rule is set aside). */
    audienceOverride: integer("audience_override", { mode: "boolean" }).notNull().default(false),
    /** Grows with every change of the page's audience: a change names the version it read (a conditional update). */
    accessVersion: integer("access_version").notNull().default(0),
  },
  (table) => [uniqueIndex("pages_path_unique").on(table.path)],
);

/** The roles a page is restricted to while `pages.audience_override` is set. */
export const pageAudience = sqliteTable(
  "page_audience",
  {
    pageId: integer("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.pageId, table.roleId] })],
);

export const rolePermissions = sqliteTable(
  "role_permissions",
  {
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    pageId: integer("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    canAccess: integer("can_access", { mode: "boolean" }).notNull().default(true),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.pageId] })],
);

/** Single-use links sent by e-mail; only SHA-256 of the token is stored. */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `email_confirmation` or `password_reset`. */
    purpose: text("purpose", { enum: ["email_confirmation", "password_reset"] }).notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    usedAt: integer("used_at", { mode: "number" }),
    createdAt: createdAt(),
  },
  (table) => [index("email_tokens_user_idx").on(table.userId, table.purpose)],
);

export const auditLogs = sqliteTable(
  "audit_logs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    createdAt: createdAt(),
    /** Kept when the user is deleted: the trail of what they did must stay. */
    userId: text("user_id"),
    actionType: text("action_type").notNull(),
    result: text("result", { enum: ["success", "failure", "blocked"] }).notNull(),
    /** JSON object text, or null. */
    actionDetails: text("action_details"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** SHA-256 (hex) of the previous row's hash + this row's canonical content (see audit-chain.ts); null before the chain began. */
    hash: text("hash"),
  },
  (table) => [
    // One index per filter, each ending in the viewer's order (created_at, id) so a page is a range read.
    index("audit_logs_created_idx").on(table.createdAt, table.id),
    index("audit_logs_user_created_idx").on(table.userId, table.createdAt, table.id),
    index("audit_logs_action_created_idx").on(table.actionType, table.createdAt, table.id),
    index("audit_logs_result_created_idx").on(table.result, table.createdAt, table.id),
  ],
);

/** The interactive trail, saved per user so it follows them across browsers. */
export const trailProgress = sqliteTable("trail_progress", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** JSON: { completed: string[], answers: Record<string, Record<string, string>>, projectName: string } */
  data: text("data").notNull(),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
});

/**
 * "Li e entendi": one row per person, page and version of a required page (content frontmatter
 * `leitura` or content/leitura-obrigatoria.yaml). A second confirmation of the same version is a no-op.
 */
export const readingConfirmations = sqliteTable(
  "reading_confirmations",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Route path of the page, e.g. /sobre-b1. */
    pagePath: text("page_path").notNull(),
    /** The editors' version number confirmed. */
    version: integer("version").notNull(),
    confirmedAt: integer("confirmed_at", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.pagePath, table.version] }),
    // The report counts per page and version, reading the people from the index alone.
    index("reading_confirmations_page_idx").on(table.pagePath, table.version, table.userId),
  ],
);

/** When each person last opened /novidades: the changes after it are shown as new. */
export const readingNewsVisits = sqliteTable("reading_news_visits", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  seenAt: integer("seen_at", { mode: "number" }).notNull(),
});

/**
 * The weekly required-reading reminder: one row per person and ISO week (`2026-W48`), inserted
 * before the mail goes out. The insert is the claim: a second run or instance that finds the row
 * sends nothing, and a row left without `sent_at` by a crash is never retried (at most once). A
 * send whose outcome is unknown (the connection dropped after the message went out) keeps its row
 * with `failed_at`: only the operator's resend (`npm run reading:digest -- --reenviar-falhas`) sends again.
 */
export const readingDigestSends = sqliteTable(
  "reading_digest_sends",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    week: text("week").notNull(),
    claimedAt: integer("claimed_at", { mode: "number" }).notNull(),
    /** When the mail server took the message; null while sending, or if the run stopped before it did. */
    sentAt: integer("sent_at", { mode: "number" }),
    /** When a send ended without the server's answer (it may have stored the message); null otherwise. */
    failedAt: integer("failed_at", { mode: "number" }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.week] })],
);

/** Corporate sign-ins under way: one row per redirect to the identity provider, deleted when its callback arrives. */
export const oidcSignInAttempts = sqliteTable(
  "oidc_sign_in_attempts",
  {
    /** SHA-256 (hex) of the `state` sent to the provider and kept in the browser's cookie. */
    stateHash: text("state_hash").primaryKey(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    /** Same-origin path to open after signing in. */
    nextPath: text("next_path").notNull(),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("oidc_sign_in_attempts_expires_idx").on(table.expiresAt)],
);

/** Fixed-window counters of the rate limits, shared by every instance on the same database. */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    /** e.g. `sign-in:ip:1.2.3.4`. */
    key: text("key").primaryKey(),
    count: integer("count", { mode: "number" }).notNull(),
    /** When the current window ends (UTC ms); a row past it counts as empty. */
    resetAt: integer("reset_at", { mode: "number" }).notNull(),
  },
  (table) => [index("rate_limits_reset_idx").on(table.resetAt)],
);

/** One row that `/readyz` rewrites every few seconds at most: proof that the database still takes writes. */
export const healthProbe = sqliteTable("health_probe", {
  id: integer("id").primaryKey().default(1),
  probedAt: integer("probed_at", { mode: "number" }).notNull(),
});
