import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, isNull } from "drizzle-orm";
import { emailTokens } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { sha256 } from "../platform/hashing.ts";

export type TokenPurpose = "email_confirmation" | "password_reset";

/** How long each kind of link stays valid. */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  email_confirmation: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
};

function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(token));
}

/** Issues a single-use link token (160 random bits); earlier unused tokens of the same purpose die. */
export async function createEmailToken(db: Db, userId: string, purpose: TokenPurpose, now = Date.now()): Promise<string> {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  const token = encodeBase32LowerCaseNoPadding(bytes);
  await db.transaction(async (tx) => {
    await deleteUnusedEmailTokens(tx, userId, purpose);
    await tx
      .insert(emailTokens)
      .values({ tokenHash: hashToken(token), userId, purpose, expiresAt: now + TOKEN_TTL_MS[purpose], createdAt: now });
  });
  return token;
}

export type ConsumeResult = { ok: true; userId: string } | { ok: false; reason: "invalid" | "expired" | "used" };

/** The user of a live token, without using it up (e.g. to ask for a password before consuming it). */
export async function findEmailToken(
  db: Pick<Db, "select">,
  token: string,
  purpose: TokenPurpose,
  now = Date.now(),
): Promise<ConsumeResult> {
  if (!/^[a-z2-7]{32}$/.test(token)) return { ok: false, reason: "invalid" };
  const row = (
    await db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, purpose)))
  )[0];
  if (!row) return { ok: false, reason: "invalid" };
  if (row.usedAt !== null) return { ok: false, reason: "used" };
  if (row.expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, userId: row.userId };
}

/** Marks a token used and returns its user; expired, reused or unknown tokens are refused. */
export async function consumeEmailToken(
  db: Pick<Db, "select" | "update">,
  token: string,
  purpose: TokenPurpose,
  now = Date.now(),
): Promise<ConsumeResult> {
  const found = await findEmailToken(db, token, purpose, now);
  if (!found.ok) return found;
  const updated = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), isNull(emailTokens.usedAt)))
    .returning({ tokenHash: emailTokens.tokenHash });
  if (updated.length !== 1) return { ok: false, reason: "used" };
  return found;
}

/** Kills a user's unused links of one purpose (their holder no longer speaks for the account). */
export async function deleteUnusedEmailTokens(db: Pick<Db, "delete">, userId: string, purpose: TokenPurpose): Promise<void> {
  await db.delete(emailTokens).where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}
