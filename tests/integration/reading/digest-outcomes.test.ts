/**
 * The weekly reminder when the mail server's answer is not a plain 250: "no máximo um e-mail por
 * semana" holds whatever the SMTP outcome. A definite refusal (a 4xx/5xx reply, or no connection
 * at all) gives the claim back for the next pass; a connection lost after the message went out
 * (the server may have stored it) keeps the claim, marks it failed and counts it in the audit row,
 * and only the operator's resend (`npm run reading:digest -- --reenviar-falhas`) sends it again.
 * In-process against a real SMTP server on loopback (tests/support/smtp-sink.ts), each case in its
 * own ISO week so their claims stay apart.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditLogs, readingDigestSends } from "../../../db/schema/index";
import { insertScaleUsers } from "../../../scripts/bench/scale-data";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { resendFailedDigests, sendReadingDigests, UNREACHABLE_STOP } from "../../../src/lib/server/reading/digest";
import { sendOverSmtp, type Mail } from "../../../src/lib/server/mail/email";
import { startSmtpSink, type SinkAnswer, type SmtpSink } from "../../support/smtp-sink";
import { openOwnTestDatabase } from "../../support/users";
import { requiredPage } from "../../support/reading-dist";

const PEOPLE = 5;
const PUBLIC_URL = "http://portal.b1.example.com";
let dir: string;
let db: Db;
let sink: SmtpSink;
let send: (mail: Mail) => Promise<void>;
let ids: string[];
let emails: string[];
let previousDist: string | undefined;

/** The figure `npm run chaos` prints for a case: the most mails anyone got, and how the run ended. */
function report(label: string, counts: number[], runs: { sent: number; failed: number; uncertain: number }[]) {
  const total = (key: "sent" | "failed" | "uncertain") => runs.reduce((sum, run) => sum + run[key], 0);
  console.log(
    `lembrete semanal, ${label}: no máximo ${Math.max(...counts)} e-mail por pessoa (${counts.length} pessoas); ${total("sent")} enviados, ${total("failed")} recusados e tentados de novo, ${total("uncertain")} sem confirmação (não reenviados)`,
  );
}

/** The sink answers `answers[email]` for these people and 250 for everyone else. */
function answering(answers: Record<number, SinkAnswer>) {
  const byEmail = new Map(Object.entries(answers).map(([index, answer]) => [emails[Number(index)]!, answer]));
  sink.answer = (to) => byEmail.get(to) ?? "accept";
}

/** Mails each person got (or may have: the server had the whole message) in this week's case. */
function mailCounts(since: number): number[] {
  const counts = new Map(emails.map((email) => [email, 0]));
  for (const mail of sink.received.slice(since)) counts.set(mail.to, (counts.get(mail.to) ?? 0) + 1);
  return emails.map((email) => counts.get(email)!);
}

/** This week's claim of person `index`, if any. */
async function claimOf(index: number, week: string) {
  const mine = and(eq(readingDigestSends.week, week), eq(readingDigestSends.userId, ids[index]!));
  return (await db.select().from(readingDigestSends).where(mine))[0];
}

async function auditOf(week: string) {
  const rows = await db.select().from(auditLogs).where(eq(auditLogs.actionType, "reading_digest_sent"));
  return rows.map((row) => JSON.parse(row.actionDetails!) as Record<string, unknown>).filter((details) => details.semana === week);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-digest-smtp-"));
  fs.writeFileSync(
    path.join(dir, "reading.json"),
    JSON.stringify({ buildId: "teste", pages: [requiredPage("/sobre-b1", "Sobre a B1", 1)] }),
  );
  previousDist = process.env.B1_DIST_DIR;
  process.env.B1_DIST_DIR = dir;
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  // In id order, the order a pass goes through people.
  const people = (await insertScaleUsers(db, PEOPLE)).map((id, index) => ({ id, email: `pessoa-${index}@b1.example.com` }));
  people.sort((a, b) => (a.id < b.id ? -1 : 1));
  ids = people.map((person) => person.id);
  emails = people.map((person) => person.email);
  sink = await startSmtpSink();
  // What sendMail does with SMTP_URL set: one connection per message.
  const transport = nodemailer.createTransport(sink.url);
  send = async (mail) => void (await transport.sendMail({ from: "portal@b1.example.com", ...mail }));
}, 30_000);

// A case that fails midway leaves the server up for the next one.
afterEach(() => sink.start());

afterAll(async () => {
  await sink?.stop();
  if (db) await closeDatabase(db);
  if (previousDist === undefined) delete process.env.B1_DIST_DIR;
  else process.env.B1_DIST_DIR = previousDist;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the weekly reminder under ambiguous SMTP outcomes", () => {
  it("keeps the claim of a message whose connection dropped after its content (no second mail), marks it and counts it", async () => {
    const week = "2030-W01";
    const since = sink.received.length;
    answering({ 2: "drop" });
    const run = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(run).toMatchObject({ sent: PEOPLE - 1, failed: 0, uncertain: 1 });
    // The next pass (the server's, hourly) finds nothing to send: the dropped one is not sent again.
    answering({});
    const again = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(again).toMatchObject({ sent: 0, failed: 0, uncertain: 0 });
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
    report("conexão caída depois do DATA", mailCounts(since), [run, again]);
    const dropped = await claimOf(2, week);
    expect(dropped).toMatchObject({ sentAt: null, failedAt: expect.any(Number) });
    expect(await auditOf(week)).toEqual([{ semana: week, enviados: PEOPLE - 1, falhas: 0, incertos: 1 }]);
  });

  it("a server that vanishes mid-batch: the message in flight is kept, the ones never connected go out on the next pass", async () => {
    const week = "2030-W02";
    const since = sink.received.length;
    answering({ 2: "vanish" });
    const run = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(run).toMatchObject({ sent: 2, uncertain: 1, failed: PEOPLE - 3 });
    await sink.start();
    answering({});
    const resumed = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(resumed).toMatchObject({ sent: PEOPLE - 3, failed: 0, uncertain: 0 });
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
    report("servidor sumiu no meio do lote", mailCounts(since), [run, resumed]);
    expect(await claimOf(2, week)).toMatchObject({ sentAt: null, failedAt: expect.any(Number) });
  });

  it("a 4xx or 5xx reply is a refusal: the claim goes back and the next pass sends it, once", async () => {
    const week = "2030-W03";
    const since = sink.received.length;
    answering({ 1: { refuse: 451 }, 3: { refuse: 554 } });
    const run = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(run).toMatchObject({ sent: PEOPLE - 2, failed: 2, uncertain: 0 });
    expect(await claimOf(1, week)).toBeUndefined();
    answering({});
    const next = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send });
    expect(next).toMatchObject({ sent: 2, failed: 0, uncertain: 0 });
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
    report("respostas 451 e 554", mailCounts(since), [run, next]);
  });

  it("the operator's resend sends the marked ones once, and only them", async () => {
    const week = "2030-W04";
    const since = sink.received.length;
    // The server lost this one (dropped before storing it): the operator checked and resends.
    answering({ 4: "lost" });
    expect(await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send })).toMatchObject({ sent: PEOPLE - 1, uncertain: 1 });
    expect(mailCounts(since)).toEqual(emails.map((_, index) => (index === 4 ? 0 : 1)));
    answering({});
    const [first, second] = await Promise.all([
      resendFailedDigests(db, { week, publicUrl: PUBLIC_URL, send }),
      resendFailedDigests(db, { week, publicUrl: PUBLIC_URL, send }),
    ]);
    expect(first!.sent + second!.sent).toBe(1);
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
    expect(await claimOf(4, week)).toMatchObject({ sentAt: expect.any(Number), failedAt: null });
    expect(await resendFailedDigests(db, { week, publicUrl: PUBLIC_URL, send })).toMatchObject({ sent: 0, failed: 0, uncertain: 0 });
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
  });

  it(`a mail server that answers nothing stops the pass after ${UNREACHABLE_STOP} tries in a row; the rest go out on the next pass`, async () => {
    const week = "2030-W05";
    const since = sink.received.length;
    // The portal's own SMTP send (sendMail with SMTP_URL), which knows whether the server said anything.
    const portalSend = (mail: Mail) => sendOverSmtp(sink.url, { from: "portal@b1.example.com", ...mail });
    await sink.stop();
    const stopped = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send: portalSend });
    expect(stopped).toMatchObject({ sent: 0, failed: UNREACHABLE_STOP, uncertain: 0, stoppedUnreachable: true });
    // Nobody is left claimed: the tried ones were given back, the others never claimed.
    for (let index = 0; index < PEOPLE; index += 1) expect(await claimOf(index, week)).toBeUndefined();
    expect(await auditOf(week)).toEqual([{ semana: week, enviados: 0, falhas: UNREACHABLE_STOP, incertos: 0 }]);
    await sink.start();
    const next = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send: portalSend });
    expect(next).toMatchObject({ sent: PEOPLE, failed: 0, stoppedUnreachable: false });
    expect(mailCounts(since)).toEqual(Array(PEOPLE).fill(1));
  });

  it("a server that answers, even with a refusal each time, never stops the pass", async () => {
    const week = "2030-W06";
    const portalSend = (mail: Mail) => sendOverSmtp(sink.url, { from: "portal@b1.example.com", ...mail });
    answering(Object.fromEntries(emails.map((_, index) => [index, { refuse: 451 }])));
    const run = await sendReadingDigests(db, { week, publicUrl: PUBLIC_URL, send: portalSend });
    expect(run).toMatchObject({ sent: 0, failed: PEOPLE, stoppedUnreachable: false });
    answering({});
  });
});
