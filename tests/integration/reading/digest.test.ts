/**
 * The weekly required-reading reminder, run as `npm run reading:digest` runs it (scripts/reading-digest.ts
 * in its own process) against a real SMTP server on loopback: who gets a mail and what it says
 * (only pages they may open), the opt-out, and that nobody gets two in a week — on a second run, on
 * two runs at once, and on a run killed mid-batch and started again.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs, readingDigestSends, users } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { config } from "../../../src/lib/server/config/config";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { confirmReading } from "../../../src/lib/server/reading/confirmations";
import { setDigestChoice } from "../../../src/lib/server/reading/digest-setting";
import { decodeQuotedPrintable, mailSubject } from "../../support/mail";
import { createTestUser, openOwnTestDatabase, type TestUser } from "../../support/users";
import { distWithRequiredPages, requiredPage } from "../../support/reading-dist";
import { scriptArgs } from "../../support/scripts";
import { oneWeekClock, type WeekClock } from "../../support/week-clock";

const ABOUT = requiredPage("/sobre-b1", "Sobre a B1", 2);
const COMMITTEE = requiredPage("/comite-ia", "Comitê de IA", 1, ["lider", "admin"]);
const PUBLIC_URL = "http://portal.b1.example.com";

interface Received {
  to: string;
  raw: string;
}

let dir: string;
let dist: string;
let target: string;
let db: Db;
let smtp: SMTPServer;
let smtpPort: number;
const received: Received[] = [];
/** Milliseconds the SMTP server waits before accepting each message. */
let acceptDelayMs = 0;
const who: Record<string, TestUser> = {};
/** Every run of the CLI in this file falls in one ISO week. */
let clock: WeekClock;

/** Runs the digest command once; resolves with its exit code and output. */
function runDigest(
  onStart?: (child: ReturnType<typeof spawn>) => void,
  args: string[] = [],
): Promise<{ code: number | string; output: string }> {
  const child = spawn(process.execPath, [...clock.nodeArgs, ...scriptArgs("scripts/reading-digest.ts", args)], {
    env: {
      ...process.env,
      ...clock.env,
      B1_DIST_DIR: dist,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      PUBLIC_URL,
      ...(target.startsWith("postgres") ? { DATABASE_URL: target } : { DATABASE_PATH: target, DATABASE_URL: "" }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  onStart?.(child);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code: code ?? signal ?? "", output })));
}

const mailsTo = (user: TestUser) => received.filter((mail) => mail.to === user.email.toLowerCase());
const body = (mail: Received) => decodeQuotedPrintable(mail.raw);

beforeAll(async () => {
  clock = oneWeekClock(config().tzDisplay);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-digest-"));
  dist = distWithRequiredPages([ABOUT, COMMITTEE]);
  process.env.B1_DIST_DIR = dist;
  ({ target, db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  smtpPort = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo[0]!.address.toLowerCase(), raw: Buffer.concat(chunks).toString("utf8") });
        setTimeout(callback, acceptDelayMs);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  for (const role of ["visualizador", "lider", "admin"]) who[role] = await createTestUser(db, [role], `resumo-${role}`);
  who.optedOut = await createTestUser(db, ["visualizador"], "resumo-optou-sair");
  await setDigestChoice(db, who.optedOut.id, false, {});
  who.gone = await createTestUser(db, ["visualizador"], "resumo-desativado");
  await db.update(users).set({ deactivatedAt: Date.now() }).where(eq(users.id, who.gone.id));
  // The admin has read everything: no reminder.
  const admin = { userId: who.admin!.id, email: who.admin!.email, name: "", roles: ["admin"], grantedPaths: new Set<string>() };
  for (const page of [ABOUT, COMMITTEE])
    expect((await confirmReading(db, admin, { pagePath: page.path, version: page.version }, {})).ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("the weekly reminder", () => {
  it("mails each person with pending reading the pages they may open, with a link to /leitura; nobody else", async () => {
    const run = await runDigest();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Lembrete semanal \d{4}-W\d{2}: 2 enviados, 0 falhas/);

    const [viewer] = mailsTo(who.visualizador!);
    expect(mailsTo(who.visualizador!)).toHaveLength(1);
    expect(mailSubject(viewer!.raw)).toBe("Você tem 1 leitura obrigatória pendente no B1 Method Hub");
    const viewerText = body(viewer!);
    expect(viewerText).toContain("Sobre a B1 (versão 2): Resumo da versão 2 de Sobre a B1.");
    expect(viewerText).toContain(`${PUBLIC_URL}/leitura`);
    expect(viewerText).toContain(`${PUBLIC_URL}/conta/notificacoes`);
    // A page restricted to líderes: neither its title nor its summary reaches a visualizador.
    expect(viewerText).not.toContain("Comitê");
    expect(viewerText).not.toContain(COMMITTEE.summary);

    const [leader] = mailsTo(who.lider!);
    expect(mailSubject(leader!.raw)).toBe("Você tem 2 leituras obrigatórias pendentes no B1 Method Hub");
    expect(body(leader!)).toContain("Comitê de IA (versão 1)");

    for (const none of [who.admin!, who.optedOut!, who.gone!]) expect(mailsTo(none)).toEqual([]);
    const rows = await db.select().from(readingDigestSends);
    expect(rows.map((row) => row.userId).sort()).toEqual([who.visualizador!.id, who.lider!.id].sort());
    expect(rows.every((row) => row.sentAt !== null && /^\d{4}-W\d{2}$/.test(row.week))).toBe(true);
    const audit = await db.select().from(auditLogs).where(eq(auditLogs.actionType, "reading_digest_sent"));
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.actionDetails!)).toEqual({ semana: rows[0]!.week, enviados: 2, falhas: 0, incertos: 0 });
    expect(audit[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  it("sends nothing more on a second run in the same week", async () => {
    const before = received.length;
    const run = await runDigest();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/: 0 enviados, 0 falhas/);
    expect(received.length).toBe(before);
  }, 60_000);

  it("sends one mail per person when two runs (two instances) go at once", async () => {
    const people = await Promise.all(
      Array.from({ length: 30 }, (_, index) => createTestUser(db, ["visualizador"], `resumo-duplo-${index}`)),
    );
    const runs = await Promise.all([runDigest(), runDigest()]);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const sent = runs.map((run) => Number(/: (\d+) enviados/.exec(run.output)![1]));
    expect(sent[0]! + sent[1]!).toBe(30);
    for (const person of people) expect(mailsTo(person), person.email).toHaveLength(1);
  }, 90_000);

  it("resumes after a run killed mid-batch, without sending anyone a second mail", async () => {
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, index) => createTestUser(db, ["visualizador"], `resumo-reinicio-${index}`)),
    );
    const before = received.length;
    acceptDelayMs = 300;
    const killed = await runDigest((child) => {
      const timer = setInterval(() => {
        if (received.length - before >= 3) {
          clearInterval(timer);
          child.kill("SIGKILL");
        }
      }, 5);
      child.once("exit", () => clearInterval(timer));
    });
    acceptDelayMs = 0;
    expect(killed.code).toBe("SIGKILL");
    const midway = received.length - before;
    expect(midway).toBeGreaterThanOrEqual(3);
    expect(midway).toBeLessThan(8);
    const resumed = await runDigest();
    expect(resumed.code, resumed.output).toBe(0);
    expect(Number(/: (\d+) enviados/.exec(resumed.output)![1])).toBe(8 - midway);
    for (const person of people) expect(mailsTo(person), person.email).toHaveLength(1);
    // The mail the server took while the run was killed is claimed but never marked sent: it is not sent again.
    const claims = await db.select().from(readingDigestSends);
    expect(claims.filter((row) => row.sentAt === null).length).toBeLessThanOrEqual(1);
  }, 90_000);

  it("--reenviar-falhas resends this week's mails marked as failed (outcome unknown), once", async () => {
    const person = await createTestUser(db, ["visualizador"], "resumo-reenvio");
    const week = clock.week;
    // What a pass leaves when the connection dropped after the message went out (digest-outcomes.test.ts).
    await db.insert(readingDigestSends).values({ userId: person.id, week, claimedAt: Date.now(), failedAt: Date.now() });
    // (The weekly pass leaves such a row alone: digest-outcomes.test.ts.)
    const resent = await runDigest(undefined, ["--reenviar-falhas"]);
    expect(resent.code, resent.output).toBe(0);
    expect(resent.output).toMatch(/Reenvio do lembrete semanal \d{4}-W\d{2}: 1 enviados, 0 falhas/);
    expect(mailsTo(person)).toHaveLength(1);
    const [row] = await db.select().from(readingDigestSends).where(eq(readingDigestSends.userId, person.id));
    expect(row).toMatchObject({ sentAt: expect.any(Number), failedAt: null });
  }, 60_000);
});
