/**
 * `npm run audit:verify -- --file <arquivo>` (issue 45): a SIEM's copy of the streamed events
 * checked against the chain, from JSON lines, webhook bodies or syslog messages, streamed line by
 * line; and the file's attacks (prototype keys, huge ids, NUL and bidi characters, a truncated last
 * line, an empty file, a directory, a line too long to buffer, a file larger than the heap).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainHash } from "../../../src/lib/server/audit/chain";
import { octetCounted, syslogMessage, toEvents, type AuditEvent } from "../../../src/lib/server/audit/stream/event";
import type { StreamedRow } from "../../../src/lib/server/audit/stream/state";
import { CopyChecker, describeCopyReport, feedFile, MAX_LINE_BYTES } from "../../../src/lib/server/audit/siem-copy";
import { scriptArgs } from "../../support/scripts";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-siem-copy-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `count` rows chained from `prevHash`, with ids from `firstId` (gaps in ids as a PostgreSQL sequence leaves them are allowed). */
function rows(count: number, firstId = 1, prevHash = "", step = 1): StreamedRow[] {
  let previous = prevHash;
  return Array.from({ length: count }, (_, index) => {
    const row = {
      id: firstId + index * step,
      createdAt: Date.UTC(2026, 10, 27, 12, 0, index),
      userId: index % 3 ? `u${index}` : null,
      userEmail: index % 3 ? `p${index}@b1.example.com` : null,
      userName: null,
      actionType: index % 4 === 0 ? "user_login_attempt" : "page_access_granted",
      result: index % 4 === 0 ? "blocked" : "success",
      // Control, bidi and NUL characters inside the details: they travel escaped in the JSON.
      actionDetails: JSON.stringify(index % 4 === 0 ? { count: index + 1, email: "x@y" } : { path: `/p${index}\u202e\u0000\u0007` }),
      ipAddress: "192.0.2.1",
      userAgent: "UA",
      hash: "",
    };
    row.hash = chainHash(previous, row);
    previous = row.hash;
    return row;
  });
}

function eventsOf(list: StreamedRow[], prevHash = ""): AuditEvent[] {
  return toEvents(list, prevHash, "host:1");
}

const ndjson = (events: readonly unknown[]) => events.map((event) => JSON.stringify(event)).join("\n") + "\n";

let fileCount = 0;
function fileWith(content: string | Buffer): string {
  const file = path.join(dir, `copia-${++fileCount}.ndjson`);
  fs.writeFileSync(file, content);
  return file;
}

async function check(content: string | Buffer) {
  const file = fileWith(content);
  const checker = new CopyChecker();
  await feedFile(file, checker);
  const report = await checker.finish();
  return { report, ...describeCopyReport(report, file), text: describeCopyReport(report, file).lines.join("\n") };
}

function cli(args: string[]) {
  const run = spawnSync(process.execPath, ["--max-old-space-size=64", ...scriptArgs("scripts/audit-verify.ts", args)], {
    encoding: "utf8",
    timeout: 60_000,
    // No database: a SIEM analyst's machine (the command must not open one without --db).
    env: { ...process.env, DATABASE_PATH: path.join(dir, "nao-existe", "db.sqlite"), DATABASE_URL: "" },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("a SIEM copy against the chain", () => {
  const chainRows = rows(40);
  const events = eventsOf(chainRows);

  it("passes for events as JSON lines, webhook bodies (repeats dropped by id) and syslog messages", async () => {
    const lines = await check(ndjson(events));
    expect(lines.ok).toBe(true);
    expect(lines.report).toMatchObject({ events: 40, repeats: 0, firstId: 1, lastId: 40, fromGenesis: true });
    expect(lines.text).toMatch(/^OK: cópia .* 40 eventos, registros #1 a #40/);

    // Webhook bodies, the second batch delivered twice (at least once), CRLF line ends.
    const body = (slice: AuditEvent[]) => JSON.stringify({ type: "b1.audit.batch", timestamp: "x", data: { events: slice } });
    const bodies = [body(events.slice(0, 10)), body(events.slice(10, 25)), body(events.slice(10, 25)), body(events.slice(25))];
    const webhook = await check(bodies.join("\r\n"));
    expect(webhook.ok).toBe(true);
    expect(webhook.report).toMatchObject({ events: 40, repeats: 15 });

    // Syslog as rsyslog writes %rawmsg%, and with the octet count in front; an Elasticsearch hit.
    const syslog = events.map((event, index) => {
      const message = syslogMessage(event, "host", "7");
      return index % 2 ? message : octetCounted(message).toString("utf8");
    });
    const fromSyslog = await check(syslog.join("\n") + "\n" + JSON.stringify({ _source: events[0] }) + "\n");
    expect(fromSyslog.ok).toBe(true);
    expect(fromSyslog.report).toMatchObject({ events: 40, repeats: 1 });
  });

  it("ids with gaps (a PostgreSQL sequence) chain by hash: no false gap", async () => {
    const result = await check(ndjson(eventsOf(rows(10, 5, "", 3))));
    expect(result.ok).toBe(true);
  });

  it("an edited event, a missing one, a conflicting repeat and a syslog header that disagrees each fail, naming the id", async () => {
    const edited = events.map((event) => (event.id === 7 ? { ...event, detailsText: '{"path":"/outra"}' } : event));
    const editedResult = await check(ndjson(edited));
    expect(editedResult.ok).toBe(false);
    expect(editedResult.text).toMatch(/1 eventos cujo hash não confere.*registro #7/);

    const missing = await check(ndjson(events.filter((event) => event.id !== 20 && event.id !== 21)));
    expect(missing.ok).toBe(false);
    expect(missing.text).toMatch(/lacunas.*entre #19 e #22/);

    // A forged copy of event 30 with its own consistent hash: the repeat does not match the first.
    const forgedRow = { ...chainRows[29]!, actionType: "admin_role_assigned" };
    forgedRow.hash = chainHash(chainRows[28]!.hash!, forgedRow);
    const conflict = await check(ndjson([...events, eventsOf([forgedRow], chainRows[28]!.hash!)[0]!]));
    expect(conflict.ok).toBe(false);
    expect(conflict.text).toMatch(/ids repetidos com hashes diferentes: registro #30/);

    const header = syslogMessage(events[3]!, "host", "7").replace(`id="4"`, `id="5"`);
    const sd = await check(ndjson(events.slice(0, 3)) + header + "\n");
    expect(sd.ok).toBe(false);
    expect(sd.text).toMatch(/dados estruturados divergem.*#4/);
  });

  it("out of order is a warning (a SIEM may export newest first); the chain is checked in id order", async () => {
    const result = await check(ndjson([...events].reverse()));
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(/ATENÇÃO 39 eventos fora da ordem/);
  });

  it("refuses what is not an event: prototype keys, huge or fractional ids, NUL bytes, a truncated last line", async () => {
    const good = events.slice(0, 3);
    const hostile = [
      // Keys that would reach prototypes if merged: only own fields are read, nothing is polluted.
      '{"__proto__":{"id":4,"hash":"x"},"constructor":{"prototype":{"polluted":1}}}',
      JSON.stringify({ ...events[3], actor: JSON.parse('{"__proto__":{"userId":"u"}}') as unknown }),
      JSON.stringify({ ...events[3], id: 1e400 }).replace("null", "1e400"),
      JSON.stringify({ ...events[3], id: "4" }),
      `{"id":123456789012345678901234567890,"hash":"${events[3]!.hash}"}`,
      JSON.stringify({ ...events[3], id: 4.5 }),
      JSON.stringify({ ...events[3], id: -4 }),
      JSON.stringify({ ...events[3], hash: "ZZ".repeat(32) }),
      '{"id":4,"nul":"a\u0000b"}',
      "\u0000\u0000\u0000",
      "\u202e{}",
      "[1,2,3]",
    ];
    const truncated = JSON.stringify(events[4]).slice(0, 50);
    const result = await check(ndjson(good) + hostile.join("\n") + "\n" + truncated);
    expect(result.ok).toBe(false);
    const problems = result.report.problems;
    expect((problems.get("event")?.count ?? 0) + (problems.get("line")?.count ?? 0)).toBe(hostile.length + 1);
    expect(problems.get("line")!.examples.at(-1)).toMatch(/^linha 16: JSON inválido ou incompleto/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    // The report names lines and ids only: none of the file's characters reach the terminal.
    expect(result.text).not.toMatch(/[\u0000-\u0008\u202e]/);
  });

  it("an empty file has nothing to verify (exit 1); a directory, a missing file, the audit CSV and bad options are exit 2", async () => {
    expect((await check("")).text).toMatch(/^ERRO: nenhum evento de auditoria/);
    expect((await check("\n\n")).ok).toBe(false);

    const empty = cli(["--file", fileWith("")]);
    expect(empty.status).toBe(1);
    expect(cli(["--file", dir])).toMatchObject({ status: 2, output: expect.stringMatching(/não é um arquivo/) });
    expect(cli(["--file", path.join(dir, "nada.ndjson")])).toMatchObject({ status: 2, output: expect.stringMatching(/ENOENT/) });
    const csv = cli(["--file", fileWith("\uFEFFData/Hora,Usuário,E-mail,Ação\r\n27/11/2026 10:00:00,Ana,a@b,Entrou\r\n")]);
    expect(csv).toMatchObject({ status: 2, output: expect.stringMatching(/CSV da página de auditoria.*não traz o id nem o hash/) });
    for (const args of [["--file"], ["--bogus"], ["--seal", "--file", "x"], ["--db"], ["--file", "a", "b"], ["--file="]]) {
      const run = cli(args);
      expect(run.status, args.join(" ")).toBe(2);
      expect(run.output).toMatch(/^ERRO: .*\nuso: npm run audit:verify/);
    }
  });

  it("a 10 MB line is read and refused; a line longer than the limit is skipped without being buffered", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const tooLong = Buffer.alloc(MAX_LINE_BYTES + 1, 0x61);
    const content = Buffer.concat([
      Buffer.from(ndjson(events.slice(0, 2)) + big + "\n"),
      tooLong,
      Buffer.from("\n" + ndjson(events.slice(2))),
    ]);
    const result = await check(content);
    expect(result.ok).toBe(false);
    expect(result.report.events).toBe(40);
    expect(result.report.problems.get("line")!.examples).toEqual([
      "linha 3: nem evento JSON nem mensagem syslog do portal",
      "linha 4: mais de 32 MiB, não lida",
    ]);
  });

  it("streams: a file several times the command's 64 MB heap verifies, through the command (exit 0)", () => {
    // 170,000 events (~110 MB): read whole, the file alone would not fit the heap the command runs with.
    const many = rows(170_000);
    const file = path.join(dir, "grande.ndjson");
    const fd = fs.openSync(file, "w");
    for (let start = 0; start < many.length; start += 10_000) {
      const slice = many.slice(start, start + 10_000);
      fs.writeSync(fd, ndjson(eventsOf(slice, start ? many[start - 1]!.hash! : "")));
    }
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(100 * 1024 * 1024);
    const run = cli(["--file", file]);
    expect(run.output).toMatch(/^OK: cópia .* 170000 eventos, registros #1 a #170000/);
    expect(run.status).toBe(0);
  }, 60_000);
});
