/**
 * "Li e entendi": a person confirms the current version of a required page. The row and its audit
 * row are one transaction; a second confirmation of the same version changes nothing.
 */
import { and, eq } from "drizzle-orm";
import { readingConfirmations } from "../../../../db/schema/index.ts";
import type { Principal } from "../../routes.ts";
import { mustRead, type Confirmation } from "../../reading/pending.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";
import { requiredPage } from "./manifest.ts";
import { forgetReadingStatus } from "./status.ts";
import { markTalliesStale } from "./tallies.ts";

export type ConfirmResult =
  { ok: true; version: number; confirmedAt: number; recorded: boolean } | { ok: false; status: 404 | 409; error: string };

/** Confirms `version` of `pagePath` for `principal`; only the current version of a page they must read. */
export async function confirmReading(
  db: Db,
  principal: Principal,
  request: { pagePath: string; version: number },
  meta: RequestMeta,
): Promise<ConfirmResult> {
  const page = requiredPage(request.pagePath);
  // Unknown, not required, or not open to this person: one answer, so nothing is learnt about the page.
  if (!page || !mustRead(page, principal))
    return { ok: false, status: 404, error: "Esta página não pede confirmação de leitura para você." };
  if (request.version !== page.version) {
    return { ok: false, status: 409, error: "Esta página mudou desde que você a abriu: recarregue para ler a versão atual." };
  }
  const confirmedAt = Date.now();
  const outcome = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(readingConfirmations)
      .values({ userId: principal.userId, pagePath: page.path, version: page.version, confirmedAt })
      .onConflictDoNothing()
      .returning({ confirmedAt: readingConfirmations.confirmedAt });
    if (inserted.length === 0) {
      const [existing] = await tx
        .select({ confirmedAt: readingConfirmations.confirmedAt })
        .from(readingConfirmations)
        .where(eqConfirmation(principal.userId, page.path, page.version));
      return { recorded: false, confirmedAt: existing?.confirmedAt ?? confirmedAt };
    }
    await writeAuditLog(tx, {
      userId: principal.userId,
      actionType: "reading_confirmed",
      result: "success",
      details: { pagina: page.path, versao: page.version },
      ...meta,
    });
    return { recorded: true, confirmedAt };
  });
  forgetReadingStatus(principal.userId);
  if (outcome.recorded) markTalliesStale();
  return { ok: true, version: page.version, ...outcome };
}

function eqConfirmation(userId: string, pagePath: string, version: number) {
  return and(
    eq(readingConfirmations.userId, userId),
    eq(readingConfirmations.pagePath, pagePath),
    eq(readingConfirmations.version, version),
  );
}

/** Every confirmation of one person (a few per required page). */
export async function confirmationsOf(db: Db, userId: string): Promise<Confirmation[]> {
  return db
    .select({
      pagePath: readingConfirmations.pagePath,
      version: readingConfirmations.version,
      confirmedAt: readingConfirmations.confirmedAt,
    })
    .from(readingConfirmations)
    .where(eq(readingConfirmations.userId, userId));
}
