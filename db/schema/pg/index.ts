/**
 * The PostgreSQL twin of `../sqlite/index.ts`: the same tables, columns and indexes (a test
 * compares the two). Times are UTC milliseconds in `bigint` columns read as JS numbers.
 * Over 200 lines because it mirrors the SQLite schema table by table, in the same order.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

/** Milliseconds since the epoch, as the SQLite default `unixepoch('subsec') * 1000`. */
export const nowMs = sql`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`;
const millis = (name: string) => bigint(name, { mode: "number" });
const createdAt = () => millis("created_at").notNull().default(nowMs);

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    fullName: text("full_name").notNull().default(""),
    passwordHash: text("password_hash").notNull(),
    emailConfirmedAt: millis("email_confirmed_at"),
    createdAt: createdAt(),
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
    provisionedAt: millis("provisioned_at"),
    externalId: text("external_id"),
    deactivatedAt: millis("deactivated_at"),
    directoryResource: text("directory_resource"),
    resourceModifiedAt: millis("resource_modified_at"),
    resourceVersion: integer("resource_version").notNull().default(1),
    readingDigestOptOut: boolean("reading_digest_opt_out").notNull().default(false),
    createdBySso: boolean("created_by_sso").notNull().default(false),
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

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    secretHash: text("secret_hash").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastVerifiedAt: millis("last_verified_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    authMethod: text("auth_method", { enum: ["password", "two_factor", "sso"] })
      .notNull()
      .default("password"),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const rememberedDevices = pgTable(
  "remembered_devices",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
  },
  (table) => [
    index("remembered_devices_user_idx").on(table.userId, table.createdAt),
    index("remembered_devices_expires_idx").on(table.expiresAt),
  ],
);

export const roles = pgTable(
  "roles",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isSystem: boolean("is_system").notNull().default(false),
    /** A custom role whose holders (when all their roles are limited) open only the pages it grants, plus public ones. */
    accessLimited: boolean("access_limited").notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("roles_name_unique").on(table.name)],
);

export const userRoles = pgTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["manual", "oidc", "directory"] })
      .notNull()
      .default("manual"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] }), index("user_roles_role_idx").on(table.roleId)],
);

export const pages = pgTable(
  "pages",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    path: text("path").notNull(),
    isSystemPage: boolean("is_system_page").notNull().default(true),
    /** Set from the admin panel: only the roles in page_audience open the page (the route table's rule is set aside). */
    audienceOverride: boolean("audience_override").notNull().default(false),
    /** Grows with every change of the page's audience: a change names the version it read (a conditional update). */
    accessVersion: integer("access_version").notNull().default(0),
  },
  (table) => [uniqueIndex("pages_path_unique").on(table.path)],
);

/** The roles a page is restricted to while `pages.audience_override` is set. */
export const pageAudience = pgTable(
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

export const rolePermissions = pgTable(
  "role_permissions",
  {
    roleId: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    pageId: integer("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    canAccess: boolean("can_access").notNull().default(true),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.pageId] })],
);

export const emailTokens = pgTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["email_confirmation", "password_reset"] }).notNull(),
    expiresAt: millis("expires_at").notNull(),
    usedAt: millis("used_at"),
    createdAt: createdAt(),
  },
  (table) => [index("email_tokens_user_idx").on(table.userId, table.purpose)],
);

export const auditLogs = pgTable(
  "audit_logs",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    createdAt: createdAt(),
    userId: text("user_id"),
    actionType: text("action_type").notNull(),
    result: text("result", { enum: ["success", "failure", "blocked"] }).notNull(),
    actionDetails: text("action_details"),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    hash: text("hash"),
  },
  (table) => [
    index("audit_logs_created_idx").on(table.createdAt, table.id),
    index("audit_logs_user_created_idx").on(table.userId, table.createdAt, table.id),
    index("audit_logs_action_created_idx").on(table.actionType, table.createdAt, table.id),
    index("audit_logs_result_created_idx").on(table.result, table.createdAt, table.id),
  ],
);

export const trailProgress = pgTable("trail_progress", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  data: text("data").notNull(),
  updatedAt: millis("updated_at").notNull(),
});

export const readingConfirmations = pgTable(
  "reading_confirmations",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pagePath: text("page_path").notNull(),
    version: integer("version").notNull(),
    confirmedAt: millis("confirmed_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.pagePath, table.version] }),
    index("reading_confirmations_page_idx").on(table.pagePath, table.version, table.userId),
  ],
);

export const readingNewsVisits = pgTable("reading_news_visits", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  seenAt: millis("seen_at").notNull(),
});

export const readingDigestSends = pgTable(
  "reading_digest_sends",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    week: text("week").notNull(),
    claimedAt: millis("claimed_at").notNull(),
    sentAt: millis("sent_at"),
    failedAt: millis("failed_at"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.week] })],
);

export const oidcSignInAttempts = pgTable(
  "oidc_sign_in_attempts",
  {
    stateHash: text("state_hash").primaryKey(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    nextPath: text("next_path").notNull(),
    expiresAt: millis("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("oidc_sign_in_attempts_expires_idx").on(table.expiresAt)],
);

export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    resetAt: millis("reset_at").notNull(),
  },
  (table) => [index("rate_limits_reset_idx").on(table.resetAt)],
);

export const twoFactorSecrets = pgTable("two_factor_secrets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: millis("confirmed_at"),
  lastUsedStep: integer("last_used_step"),
  createdAt: createdAt(),
});

export const twoFactorRecoveryCodes = pgTable(
  "two_factor_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    usedAt: millis("used_at"),
  },
  (table) => [index("two_factor_recovery_codes_user_idx").on(table.userId)],
);

export const twoFactorChallenges = pgTable(
  "two_factor_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    nextPath: text("next_path").notNull(),
    failures: integer("failures").notNull().default(0),
    expiresAt: millis("expires_at").notNull(),
    ssoIssuer: text("sso_issuer"),
    ssoSubject: text("sso_subject"),
  },
  (table) => [index("two_factor_challenges_expires_idx").on(table.expiresAt)],
);

export const auditChainCheckpoints = pgTable("audit_chain_checkpoints", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  lastPrunedId: integer("last_pruned_id").notNull(),
  lastPrunedHash: text("last_pruned_hash").notNull(),
  createdAt: millis("created_at").notNull(),
});

export const healthProbe = pgTable("health_probe", {
  id: integer("id").primaryKey().default(1),
  probedAt: millis("probed_at").notNull(),
});

export const auditChainHead = pgTable("audit_chain_head", {
  id: integer("id").primaryKey().default(1),
  lastId: integer("last_id"),
  lastHash: text("last_hash").notNull(),
  prunedId: integer("pruned_id"),
  prunedHash: text("pruned_hash").notNull(),
  sealedSum: text("sealed_sum").notNull(),
  keyId: text("key_id"),
  mac: text("mac"),
  updatedAt: millis("updated_at").notNull(),
});

/** One row per audit streaming destination: its delivery cursor, pause, last error and lease (see the SQLite twin). */
export const auditDestinations = pgTable("audit_destinations", {
  name: text("name").primaryKey(),
  deliveredId: integer("delivered_id").notNull().default(0),
  deliveredAt: millis("delivered_at"),
  paused: integer("paused").notNull().default(0),
  stoppedReason: text("stopped_reason"),
  lastError: text("last_error"),
  lastErrorAt: millis("last_error_at"),
  leaseOwner: text("lease_owner"),
  leaseUntil: millis("lease_until").notNull().default(0),
  updatedAt: millis("updated_at").notNull(),
  url: text("url"),
  secretSealed: text("secret_sealed"),
  previousSecretSealed: text("previous_secret_sealed"),
  previousUntil: millis("previous_until"),
  configVersion: integer("config_version").notNull().default(0),
});

export const directoryGroups = pgTable(
  "directory_groups",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    createdAt: createdAt(),
    updatedAt: millis("updated_at").notNull(),
    resourceVersion: integer("resource_version").notNull().default(1),
  },
  (table) => [index("directory_groups_display_name_idx").on(table.displayName)],
);

export const directoryGroupMembers = pgTable(
  "directory_group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => directoryGroups.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("directory_group_members_user_idx").on(table.userId)],
);

/** How many accounts the directory manages, in up to 32 slots kept by a trigger on users (see the SQLite schema). */
export const provisionedCount = pgTable("provisioned_count", {
  slot: integer("slot").primaryKey().default(1),
  people: integer("people").notNull().default(0),
});

// Insights (issue 43): aggregates only; see ../sqlite/insights.ts for what each table holds.

/** Pages served to signed-in people, summed per page, day and role (`*` = everyone, once per read). */
export const insightsReads = pgTable(
  "insights_reads",
  {
    page: text("page").notNull(),
    day: text("day").notNull(),
    role: text("role").notNull(),
    reads: integer("reads").notNull(),
  },
  // (role, day, page, reads) covers the per-page sums of a period for one role without touching the table.
  (table) => [
    primaryKey({ columns: [table.page, table.day, table.role] }),
    index("insights_reads_role_day_idx").on(table.role, table.day, table.page, table.reads),
  ],
);

/** Distinct readers per page and week: a HyperLogLog sketch stored one register per row (merged with max). */
export const insightsReaders = pgTable(
  "insights_readers",
  {
    page: text("page").notNull(),
    week: text("week").notNull(),
    register: integer("register").notNull(),
    rank: integer("rank").notNull(),
  },
  // Retention deletes by week. The index holds no rank: a flush raising a register then changes no index entry
  // (migrations 0025 on SQLite, 0021 on PostgreSQL; the estimates read insights_reader_weeks, nothing reads ranks by week).
  (table) => [primaryKey({ columns: [table.page, table.week, table.register] }), index("insights_readers_week_idx").on(table.week)],
);

/** Reads per page, ISO week and role (see ../sqlite/insights.ts). */
export const insightsReadsWeekly = pgTable(
  "insights_reads_weekly",
  {
    page: text("page").notNull(),
    week: integer("week").notNull(),
    role: text("role").notNull(),
    reads: integer("reads").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.page, table.week, table.role] }),
    index("insights_reads_weekly_role_idx").on(table.role, table.week, table.page, table.reads),
  ],
);

/** Each readers sketch summarised: registers set and Σ 2^(52 − rank) (see ../sqlite/insights.ts). */
export const insightsReaderWeeks = pgTable(
  "insights_reader_weeks",
  {
    page: text("page").notNull(),
    week: text("week").notNull(),
    filled: integer("filled").notNull(),
    harmonic: bigint("harmonic", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.page, table.week] }), index("insights_reader_weeks_week_idx").on(table.week, table.page)],
);

/** Searches per normalised query and day: how many, how many found nothing, how many opened a result. */
export const insightsSearches = pgTable(
  "insights_searches",
  {
    query: text("query").notNull(),
    day: text("day").notNull(),
    searches: integer("searches").notNull(),
    empty: integer("empty").notNull(),
    opens: integer("opens").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.query, table.day] }),
    index("insights_searches_day_idx").on(table.day, table.query, table.searches, table.empty, table.opens),
  ],
);

/** Each query's searches summed over every day kept (see ../sqlite/insights.ts). */
export const insightsSearchTotals = pgTable("insights_search_totals", {
  query: text("query").primaryKey(),
  searches: integer("searches").notNull(),
  empty: integer("empty").notNull(),
  opens: integer("opens").notNull(),
});

/** A query's k-anonymity state: shown once `people` reached 3 (then its `insights_query_people` rows are gone). */
export const insightsQueries = pgTable(
  "insights_queries",
  {
    query: text("query").primaryKey(),
    people: integer("people").notNull(),
    lastDay: text("last_day").notNull(),
    text: text("text"),
  },
  (table) => [index("insights_queries_last_day_idx").on(table.lastDay)],
);

/** Keyed hashes of who searched a query not yet shown (removed at the threshold or by retention). */
export const insightsQueryPeople = pgTable(
  "insights_query_people",
  {
    query: text("query").notNull(),
    person: text("person").notNull(),
  },
  (table) => [primaryKey({ columns: [table.query, table.person] })],
);

/** Random keys of the keyed hashes: `voto`, `consulta`, and `semana:<week>` (deleted once the week is over). */
export const insightsKeys = pgTable("insights_keys", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull().default(nowMs),
});

/** "Esta página ajudou?": one row per person, page and version, found by a keyed hash (never the account id). */
export const insightsVotes = pgTable(
  "insights_votes",
  {
    voteKey: text("vote_key").primaryKey(),
    page: text("page").notNull(),
    version: text("version").notNull(),
    helpful: integer("helpful").notNull(),
    reason: text("reason"),
    day: text("day").notNull(),
  },
  (table) => [
    index("insights_votes_page_idx").on(table.page, table.version),
    index("insights_votes_day_idx").on(table.day, table.page, table.helpful),
  ],
);

/** Votes per page, ISO week and answer (see ../sqlite/insights.ts). */
export const insightsVotesWeekly = pgTable(
  "insights_votes_weekly",
  {
    page: text("page").notNull(),
    week: integer("week").notNull(),
    helpful: integer("helpful").notNull(),
    votes: integer("votes").notNull(),
  },
  (table) => [primaryKey({ columns: [table.page, table.week, table.helpful] })],
);

/** Comments of the feedback form; `user_id` only when the person ticked "Pode me contatar sobre isto". */
export const insightsComments = pgTable(
  "insights_comments",
  {
    id: text("id").primaryKey(),
    page: text("page").notNull(),
    version: text("version").notNull(),
    helpful: integer("helpful").notNull(),
    reason: text("reason"),
    body: text("body").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    day: text("day").notNull(),
    status: text("status").notNull().default("nova"),
  },
  (table) => [index("insights_comments_page_idx").on(table.page, table.day), index("insights_comments_day_idx").on(table.day)],
);
