import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./index.ts";

/** A user's TOTP second factor; `confirmedAt` null while enrolment waits for its first code. */
export const twoFactorSecrets = sqliteTable("two_factor_secrets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** AES-256-GCM of the 20-byte TOTP key: base64url of iv ‖ ciphertext ‖ tag (key from TWO_FACTOR_KEY). */
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: integer("confirmed_at", { mode: "number" }),
  /** The last time-step accepted: a code is never accepted twice. */
  lastUsedStep: integer("last_used_step", { mode: "number" }),
  createdAt: integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

/** Single-use recovery codes; only SHA-256 of each code is stored. */
export const twoFactorRecoveryCodes = sqliteTable(
  "two_factor_recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    usedAt: integer("used_at", { mode: "number" }),
  },
  (table) => [index("two_factor_recovery_codes_user_idx").on(table.userId)],
);

/** Password checked, code pending: the browser holds the token, only SHA-256 of it is stored. */
export const twoFactorChallenges = sqliteTable(
  "two_factor_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Same-origin path to open after the code. */
    nextPath: text("next_path").notNull(),
    /** Wrong codes so far; the challenge ends at the limit and the password is asked again. */
    failures: integer("failures", { mode: "number" }).notNull().default(0),
    expiresAt: integer("expires_at", { mode: "number" }).notNull(),
    /**
     * After a corporate sign-in: the provider identity (`iss` + `sub`) to link to the account once the code
     * is right. Nothing is linked before: an identity that only passed the provider binds nothing.
     */
    ssoIssuer: text("sso_issuer"),
    ssoSubject: text("sso_subject"),
  },
  (table) => [index("two_factor_challenges_expires_idx").on(table.expiresAt)],
);
