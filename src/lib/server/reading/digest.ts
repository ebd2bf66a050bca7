/**
 * The weekly required-reading reminder. People are read in id order, DIGEST_BATCH at a time:
 * active accounts that did not opt out and have no row for this week in reading_digest_sends.
 * For each with a pending page (only pages they may open: readingStatusOf), the row is inserted
 * first — the claim, atomic on both engines through the primary key — and only the run that
 * inserted it sends. So a second run, a second instance or a run after a restart never sends to
 * the same person twice in a week; a run stopped between claim and send leaves one person without
 * that week's mail (at most once, never twice).
 *
 * A failed send gives the claim back for the next pass only when the mail surely did not go out
 * (a 4xx/5xx reply, or the DATA command never written — no connection, a server that closed or
 * stayed silent before its greeting: mailSurelyNotTaken). A failure once DATA was written — the
 * connection dropped before the server's 250 — may have delivered it: the claim stays, marked `failed_at`, and only the operator's resend (resendFailedDigests,
 * `npm run reading:digest -- --reenviar-falhas`) sends it again. One audit row per batch that
 * sent or failed: sent, refused (`falhas`) and uncertain (`incertos`). A mail server that answers
 * nothing stops the pass after UNREACHABLE_STOP tries in a row.
 */
import { and, asc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { readingConfirmations, readingDigestSends, users } from "../../../../db/schema/index.ts";
import { readingStatusOf, type Confirmation } from "../../reading/pending.ts";
import { writeAuditLog } from "../audit/audit.ts";
import { inJsonList } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";
import { describeMailError, mailServerUnreachable, mailSurelyNotTaken, readingDigestMail, sendMail, type Mail } from "../mail/email.ts";
import { activeAccount, principalsOf } from "./audience.ts";
import { readingManifest } from "./manifest.ts";

export const DIGEST_BATCH = 500;
/**
 * A pass stops after this many sends in a row that met no mail server (refused, unreachable, or a
 * server silent until SMTP's 10 s timeout): the next person's mail would wait the same way, and with a
 * whole company to go through a pass would last days. Their claims went back; the rest stay unclaimed
 * for the next pass (an hour later in the server; the operator's next run with the CLI).
 */
export const UNREACHABLE_STOP = 3;

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
  /** Mails the server refused or that never left (their claim was given back for the next pass). */
  failed: number;
  /** Mails whose outcome is unknown (the connection dropped after they went out): kept, marked `failed_at`. */
  uncertain: number;
  /** People looked at. */
  examined: number;
  /** The pass stopped early: UNREACHABLE_STOP sends in a row met no mail server. */
  stoppedUnreachable: boolean;
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

type Person = { id: string; email: string; fullName: string };

/** What each of `people` still has to read (only pages they may open); none for those with nothing pending. */
async function pendingMails(db: Db, people: Person[], publicUrl: string): Promise<Map<string, Mail>> {
  const pages = readingManifest().pages;
  const ids = people.map((person) => person.id);
  const principals = await principalsOf(db, people);
  const confirmations = await confirmationsByUser(db, ids);
  const mails = new Map<string, Mail>();
  for (const person of people) {
    const status = readingStatusOf(pages, principals.get(person.id)!, confirmations.get(person.id) ?? []);
    const pending = status.paginas.filter((item) => (item.confirmada ?? 0) < item.versao);
    if (!pending.length) continue;
    const mail = readingDigestMail(
      person.email,
      pending.map((item) => ({ title: item.titulo, version: item.versao, summary: item.resumo })),
      `${publicUrl}/leitura`,
      `${publicUrl}/conta/notificacoes`,
    );
    mails.set(person.id, mail);
  }
  return mails;
}

type Outcome = "sent" | "failed" | "uncertain";

/** Counts sends in a row that met no mail server (mailServerUnreachable); any answer from a server starts it over. */
function unreachableStreak() {
  let streak = 0;
  return {
    note(error: unknown) {
      streak = mailServerUnreachable(error) ? streak + 1 : 0;
    },
    get reached() {
      return streak >= UNREACHABLE_STOP;
    },
  };
}

/**
 * Sends one claimed mail and records how it ended: `sent_at`; a claim given back (`giveBack`) on a
 * sure refusal; otherwise `failed_at`, kept (the server may have the message).
 */
async function deliver(
  db: Db,
  send: (mail: Mail) => Promise<void>,
  mail: Mail,
  claim: { userId: string; week: string },
  now: () => number,
  giveBack: boolean,
  streak: ReturnType<typeof unreachableStreak>,
): Promise<Outcome> {
  const mine = and(eq(readingDigestSends.userId, claim.userId), eq(readingDigestSends.week, claim.week));
  try {
    await send(mail);
    streak.note(null);
  } catch (error) {
    streak.note(error);
    const refused = mailSurelyNotTaken(error);
    // One line, no error object: an operator reads these by the hundred when the mail server is down.
    console.error(
      refused
        ? `[leitura] lembrete semanal não enviado a ${mail.to}: ${describeMailError(error)}`
        : `[leitura] lembrete semanal a ${mail.to} sem resposta do servidor (pode ter sido entregue; reenvio só com --reenviar-falhas): ${describeMailError(error)}`,
    );
    if (refused && giveBack) {
      await db.delete(readingDigestSends).where(and(mine, isNull(readingDigestSends.sentAt)));
      return "failed";
    }
    await db.update(readingDigestSends).set({ failedAt: now() }).where(mine);
    return refused ? "failed" : "uncertain";
  }
  await db.update(readingDigestSends).set({ sentAt: now(), failedAt: null }).where(mine);
  return "sent";
}

async function auditBatch(db: Db, week: string, counts: Record<Outcome, number>, resend: boolean): Promise<void> {
  const { sent, failed, uncertain } = counts;
  if (!sent && !failed && !uncertain) return;
  await writeAuditLog(db, {
    actionType: "reading_digest_sent",
    result: sent ? "success" : "failure",
    details: { semana: week, enviados: sent, falhas: failed, incertos: uncertain, ...(resend ? { reenvio: true } : {}) },
  });
}

/** Sends this week's reminders still due; see the module comment for why it never sends twice. */
export async function sendReadingDigests(db: Db, options: DigestOptions): Promise<DigestRun> {
  const { week, publicUrl, send = sendMail, batchSize = DIGEST_BATCH, now = Date.now } = options;
  const run: DigestRun = { week, sent: 0, failed: 0, uncertain: 0, examined: 0, stoppedUnreachable: false };
  if (!readingManifest().pages.length) return run;
  const streak = unreachableStreak();
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
    const mails = await pendingMails(db, people, publicUrl);
    const counts: Record<Outcome, number> = { sent: 0, failed: 0, uncertain: 0 };
    for (const person of people) {
      const mail = mails.get(person.id);
      if (!mail || !(await claim(db, person.id, week, now()))) continue;
      counts[await deliver(db, send, mail, { userId: person.id, week }, now, true, streak)] += 1;
      if (streak.reached) break;
    }
    run.sent += counts.sent;
    run.failed += counts.failed;
    run.uncertain += counts.uncertain;
    await auditBatch(db, week, counts, false);
    if (streak.reached) return { ...run, stoppedUnreachable: true };
  }
}

/**
 * The operator's resend (`npm run reading:digest -- --reenviar-falhas`), after checking the mail
 * server's log for the messages it may have stored: this week's claims marked `failed_at` are
 * sent again to those who still have something pending (and are active and did not opt out).
 * Each row is taken back by a conditional update that clears `failed_at`, so two resends at once
 * send once. A failure marks it again, whatever its kind; a person with nothing left to read is
 * left unmarked, with no mail.
 */
export async function resendFailedDigests(db: Db, options: DigestOptions): Promise<DigestRun> {
  const { week, publicUrl, send = sendMail, batchSize = DIGEST_BATCH, now = Date.now } = options;
  const run: DigestRun = { week, sent: 0, failed: 0, uncertain: 0, examined: 0, stoppedUnreachable: false };
  if (!readingManifest().pages.length) return run;
  const streak = unreachableStreak();
  let after = "";
  for (;;) {
    const people = await db
      .select({ id: users.id, email: users.email, fullName: users.fullName })
      .from(readingDigestSends)
      .innerJoin(users, eq(users.id, readingDigestSends.userId))
      .where(
        and(
          eq(readingDigestSends.week, week),
          isNotNull(readingDigestSends.failedAt),
          isNull(readingDigestSends.sentAt),
          gt(users.id, after),
        ),
      )
      .orderBy(asc(users.id))
      .limit(batchSize);
    if (!people.length) return run;
    after = people.at(-1)!.id;
    run.examined += people.length;
    const reachable = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          activeAccount,
          eq(users.readingDigestOptOut, false),
          inJsonList(
            users.id,
            people.map((person) => person.id),
          ),
        ),
      );
    const allowed = new Set(reachable.map((row) => row.id));
    const mails = await pendingMails(
      db,
      people.filter((person) => allowed.has(person.id)),
      publicUrl,
    );
    const counts: Record<Outcome, number> = { sent: 0, failed: 0, uncertain: 0 };
    for (const person of people) {
      const mine = and(eq(readingDigestSends.userId, person.id), eq(readingDigestSends.week, week));
      const retaken = await db
        .update(readingDigestSends)
        .set({ failedAt: null, claimedAt: now() })
        .where(and(mine, isNotNull(readingDigestSends.failedAt), isNull(readingDigestSends.sentAt)))
        .returning({ userId: readingDigestSends.userId });
      const mail = mails.get(person.id);
      if (retaken.length !== 1 || !mail) continue;
      counts[await deliver(db, send, mail, { userId: person.id, week }, now, false, streak)] += 1;
      if (streak.reached) break;
    }
    run.sent += counts.sent;
    run.failed += counts.failed;
    run.uncertain += counts.uncertain;
    await auditBatch(db, week, counts, true);
    if (streak.reached) return { ...run, stoppedUnreachable: true };
  }
}
