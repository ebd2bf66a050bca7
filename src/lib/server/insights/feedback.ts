/**
 * 'Esta página ajudou?' on the server. The vote row is found by a keyed hash of person, page and
 * version (so it can be changed) and names no account; a comment is its own row, with the account
 * only when the person ticked 'Pode me contatar sobre isto'. A page the person may not open, or a
 * version other than the one served, is refused like an unknown page.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { insightsComments, insightsVotes } from "../../../../db/schema/index.ts";
import type { FeedbackReason, FeedbackVote, OwnVote } from "../../insights/feedback.ts";
import { decideAccess, findRoute, type Principal } from "../../routes.ts";
import type { Db } from "../data/db.ts";
import { dayOf } from "./calendar.ts";
import type { InsightsCollector } from "./collector.ts";
import { insightsKey, keyedHash, voteKeyName } from "./keys.ts";

export const UNKNOWN_PAGE = "Página não encontrada.";
export const OLD_VERSION = "Esta página mudou desde que foi aberta: recarregue-a para responder sobre a versão atual.";
export const INSIGHTS_OFF = "A coleta de métricas está desativada neste portal.";

export type Refusal = { ok: false; status: number; error: string };

/** Why a signal about `page` (at `version`, when given) is refused for `principal`, or null. */
export function refuseSignal(
  collector: InsightsCollector | undefined,
  principal: Principal,
  page: string,
  version?: string,
): Refusal | null {
  if (!collector?.enabled) return { ok: false, status: 404, error: INSIGHTS_OFF };
  const route = findRoute(page);
  // Unknown, not a content page, or not open to this person: one answer, so no title or existence leaks.
  if (!route || !route.reading || decideAccess(route, principal) !== "allow") return { ok: false, status: 404, error: UNKNOWN_PAGE };
  const current = collector.pageVersion(page);
  if (!current) return { ok: false, status: 404, error: UNKNOWN_PAGE };
  if (version !== undefined && version !== current) return { ok: false, status: 409, error: OLD_VERSION };
  return null;
}

/**
 * The vote row's key: a keyed hash of person, page and version under the quarter's vote key (keys.ts),
 * so the person finds and changes their vote within the quarter; once the quarter's salt is deleted
 * the row still counts but names nobody (a vote in a later quarter is a new row).
 */
async function voteKeyOf(db: Db, principal: Principal, page: string, version: string, day: string): Promise<string> {
  return keyedHash(await insightsKey(db, voteKeyName(day)), `${principal.userId}\u0000${page}\u0000${version}`).toString("base64url");
}

export async function ownVote(db: Db, principal: Principal, page: string, version: string, timeZone: string): Promise<OwnVote | null> {
  const key = await voteKeyOf(db, principal, page, version, dayOf(Date.now(), timeZone));
  const [row] = await db.select().from(insightsVotes).where(eq(insightsVotes.voteKey, key));
  return row ? { ajudou: row.helpful === 1, motivo: (row.reason as FeedbackReason | null) ?? null } : null;
}

/** Records (or changes) the vote and, when given, adds the comment; one transaction. */
export async function recordVote(db: Db, principal: Principal, vote: FeedbackVote, timeZone: string): Promise<{ comentario: boolean }> {
  const day = dayOf(Date.now(), timeZone);
  const key = await voteKeyOf(db, principal, vote.pagina, vote.versao, day);
  const helpful = vote.ajudou ? 1 : 0;
  const reason = vote.ajudou ? null : (vote.motivo ?? null);
  const comment = vote.comentario?.trim() ?? "";
  await db.transaction(async (tx) => {
    await tx
      .insert(insightsVotes)
      .values({ voteKey: key, page: vote.pagina, version: vote.versao, helpful, reason, day })
      .onConflictDoUpdate({ target: insightsVotes.voteKey, set: { helpful, reason, day } });
    if (comment) {
      await tx.insert(insightsComments).values({
        id: randomUUID(),
        page: vote.pagina,
        version: vote.versao,
        helpful,
        reason,
        body: comment,
        // Anonymous unless the person asked to be contacted: then, and only then, the account.
        userId: vote.contato ? principal.userId : null,
        day,
      });
    }
  });
  return { comentario: comment.length > 0 };
}
