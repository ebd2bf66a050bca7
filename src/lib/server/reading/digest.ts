/**
 * The weekly required-reading reminder. People are read in id order, DIGEST_BATCH at a time:
 * active accounts that did not opt out and have no row for this week in reading_digest_sends.
 * For each with a pending page (only pages they may open: readingStatusOf), the row is inserted
 * first — the claim, atomic on both engines through the primary key — and only the run that
 * inserted it sends. So a second run, a second instance or a run after a restart never sends to
 * the same person twice in a week; a run stopped between claim and send leaves one person without
 * that week's mail (at most once, never twice). A failed send gives the claim back for the next
 * pass. One audit row per batch that sent or failed.
 */
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { readingConfirmations, readingDigestSends, users } from "../../../../db/schema/index.ts";
import { readingStatusOf, type Confirmation } from "../../reading/pending.ts";
import { writeAuditLog } from "../audit/audit.ts";
import { inJsonList } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";
import { readingDigestMail, sendMail, type Mail } from "../mail/email.ts";
import { activeAccount, principalsOf } from "./audience.ts";
import { readingManifest } from "./manifest.ts";

export const DIGEST_BATCH = 500;

export interface DigestOptions {
  /** ISO week the mails are for (isoWeekOf). */
  week: string;
  publicUrl: string;
  send?: (mail: Mail) => Promise<void>;
  batchSize?: number;
  now?: () => number;
}

export interface DigestRun {
  week: string;
  /** Mails the mail server took. */
  sent: number;
  /** Mails that failed (their claim was given back). */
  failed: number;
  /** People looked at. */
  examined: number;
}

async function confirmationsByUser(db: Db, ids: readonly string[]): Promise<Map<string, Confirmation[]>> {
  const byUser = new Map<string, Confirmation[]>(ids.map((id) => [id, []]));
  const rows = await db
    .select({
      userId: readingConfirmations.userId,
      pagePath: readingConfirmations.pagePath,
      version: readingConfirmations.version,
      confirmedAt: readingConfirmations.confirmedAt,
    })
    .from(readingConfirmations)
    .where(inJsonList(readingConfirmations.userId, ids));
  for (const { userId, ...row } of rows) byUser.get(userId)?.push(row);
  return byUser;
}

/** Inserts this week's row for the person; true only for the run that inserted it. */
async function claim(db: Db, userId: string, week: string, at: number): Promise<boolean> {
  const inserted = await db
    .insert(readingDigestSends)
    .values({ userId, week, claimedAt: at })
    .onConflictDoNothing()
    .returning({ userId: readingDigestSends.userId });
  return inserted.length === 1;
}

/** Sends this week's reminders still due; see the module comment for why it never sends twice. */
export async function sendReadingDigests(db: Db, options: DigestOptions): Promise<DigestRun> {
  const { week, publicUrl, send = sendMail, batchSize = DIGEST_BATCH, now = Date.now } = options;
  const run: DigestRun = { week, sent: 0, failed: 0, examined: 0 };
  const pages = readingManifest().pages;
  if (!pages.length) return run;
  const notYetThisWeek = sql`not exists (select 1 from ${readingDigestSends} where ${readingDigestSends.userId} = ${users.id} and ${readingDigestSends.week} = ${week})`;
  let after = "";
  for (;;) {
    const people = await db
      .select({ id: users.id, email: users.email, fullName: users.fullName })
      .from(users)
      .where(and(activeAccount, eq(users.readingDigestOptOut, false), notYetThisWeek, gt(users.id, after)))
      .orderBy(asc(users.id))
      .limit(batchSize);
    if (!people.length) return run;
    after = people.at(-1)!.id;
    run.examined += people.length;
    const ids = people.map((person) => person.id);
    const principals = await principalsOf(db, people);
    const confirmations = await confirmationsByUser(db, ids);
    let sent = 0;
    let failed = 0;
    for (const person of people) {
      const status = readingStatusOf(pages, principals.get(person.id)!, confirmations.get(person.id) ?? []);
      const pending = status.paginas.filter((item) => (item.confirmada ?? 0) < item.versao);
      if (!pending.length || !(await claim(db, person.id, week, now()))) continue;
      const mail = readingDigestMail(
        person.email,
        pending.map((item) => ({ title: item.titulo, version: item.versao, summary: item.resumo })),
        `${publicUrl}/leitura`,
        `${publicUrl}/conta/notificacoes`,
      );
      const mine = and(eq(readingDigestSends.userId, person.id), eq(readingDigestSends.week, week));
      try {
        await send(mail);
      } catch (error) {
        console.error(`[leitura] lembrete semanal não enviado a ${person.email}`, error);
        await db.delete(readingDigestSends).where(and(mine, isNull(readingDigestSends.sentAt)));
        failed += 1;
        continue;
      }
      await db.update(readingDigestSends).set({ sentAt: now() }).where(mine);
      sent += 1;
    }
    run.sent += sent;
    run.failed += failed;
    if (sent || failed) {
      await writeAuditLog(db, {
        actionType: "reading_digest_sent",
        result: failed && !sent ? "failure" : "success",
        details: { semana: week, enviados: sent, falhas: failed },
      });
    }
  }
}
