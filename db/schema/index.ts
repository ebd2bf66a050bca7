/**
 * The tables the portal's code uses, for the engine this process runs on: PostgreSQL when
 * `DATABASE_URL` is a postgres:// address, SQLite otherwise. Both sets have the same names,
 * columns and indexes (a test compares them). The code is typed against the PostgreSQL set, whose
 * every query is a promise: what type-checks there runs unchanged on SQLite (see db.ts).
 */
import * as pg from "./pg/index.ts";
import * as sqlite from "./sqlite/all.ts";

export type Engine = "sqlite" | "postgres";

/** The engine a database address names: postgres:// or postgresql:// URLs, a SQLite file otherwise. */
export function engineOf(target: string | undefined): Engine {
  return target && /^postgres(?:ql)?:\/\//i.test(target) ? "postgres" : "sqlite";
}

/** The engine of this process, fixed at start (tables are module-level objects). */
export const ENGINE: Engine = engineOf(process.env.DATABASE_URL);

const tables = (ENGINE === "postgres" ? pg : sqlite) as unknown as typeof pg;

export const {
  users,
  sessions,
  rememberedDevices,
  roles,
  userRoles,
  pages,
  rolePermissions,
  pageAudience,
  emailTokens,
  auditLogs,
  trailProgress,
  readingConfirmations,
  readingNewsVisits,
  readingDigestSends,
  oidcSignInAttempts,
  rateLimits,
  twoFactorSecrets,
  twoFactorRecoveryCodes,
  twoFactorChallenges,
  auditChainCheckpoints,
  healthProbe,
  auditChainHead,
  auditDestinations,
  directoryGroups,
  directoryGroupMembers,
  provisionedCount,
  insightsReads,
  insightsReadsWeekly,
  insightsReaders,
  insightsReaderWeeks,
  insightsSearches,
  insightsSearchTotals,
  insightsQueries,
  insightsQueryPeople,
  insightsKeys,
  insightsVotes,
  insightsVotesWeekly,
  insightsComments,
} = tables;
