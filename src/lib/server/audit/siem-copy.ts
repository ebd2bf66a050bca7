/**
 * Checking a SIEM's copy of the audit log against the chain (issue 45): `npm run audit:verify --
 * --file <arquivo> [--db]`. The file is read as a stream of lines, never whole: each line is a
 * streamed event as JSON, a webhook request body as delivered (`{"type":"b1.audit.batch",…}`), an
 * Elasticsearch hit (`{"_source": evento}`) or an RFC 5424 syslog message of the portal (as rsyslog
 * writes it, with or without the octet count). Per event: its hash recomputed from the fields it
 * carries (the row hash is SHA-256 without a key, so no key is needed here), and then, in chain-id
 * order, each event's prevHash against the hash of the one before: a break is a gap (events missing
 * from the copy) or an edit. Repeats of an id (delivery is at least once) must carry the same hash.
 * Optionally, the copy against the database's rows of the same range.
 *
 * Memory: a line is at most MAX_LINE_BYTES (a longer one is skipped and reported, not buffered);
 * per event only its id, a 64-bit prefix of its hash and of its prevHash and a flag are kept
 * (25 bytes), so a 1 GB file needs tens of MB, not the file.
 */
import fs from "node:fs";
import { and, asc, gt, lte } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { chainPointBefore, chainsFrom, GENESIS_HASH, type ChainedContent } from "./chain.ts";

/** A webhook body of 1,000 events (AUDIT_WEBHOOK_BATCH's maximum) fits; a longer line is skipped. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** Examples kept per kind of problem (the counts are always whole). */
const EXAMPLES = 10;
const HASH = /^[0-9a-f]{64}$/;
const SD_ID = "[b1audit@32473 ";
const DB_CHUNK = 2000;

/** A problem of the file itself (not of the copy): exit 2. */
export class CopyFileError extends Error {}

type Problem = "line" | "event" | "hash" | "sd" | "conflict" | "gap" | "order" | "db_missing" | "db_extra" | "db_hash" | "db_start";

/** How each kind of problem reads; `order` is only a warning (a SIEM may export newest first). */
const PROBLEM_TITLES: Record<Problem, string> = {
  line: "linhas ilegíveis (nem evento JSON nem mensagem syslog do portal)",
  event: "eventos incompletos ou com campos inválidos",
  hash: "eventos cujo hash não confere com o conteúdo (alterados)",
  sd: "mensagens syslog cujos dados estruturados divergem do JSON",
  conflict: "ids repetidos com hashes diferentes",
  gap: "lacunas na cadeia (o prevHash não é o hash do evento anterior do arquivo)",
  order: "eventos fora da ordem da cadeia no arquivo",
  db_missing: "registros do banco que faltam no arquivo",
  db_extra: "eventos do arquivo que não existem no banco",
  db_hash: "eventos cujo hash difere do registro no banco",
  db_start: "primeiro evento que não encadeia no registro anterior do banco",
};

export interface CopyReport {
  lines: number;
  /** Distinct chain ids. */
  events: number;
  repeats: number;
  /** Events of rows from before the chain (no hash to check). */
  unhashed: number;
  firstId: number | null;
  lastId: number | null;
  /** The first event's prevHash is genesis: the copy starts at the chain's start. */
  fromGenesis: boolean;
  problems: Map<Problem, { count: number; examples: string[] }>;
  /** Whether a problem other than a warning was found. */
  ok: boolean;
}

/** Growable columns of what is kept per event. */
class Columns {
  size = 0;
  ids = new Float64Array(1024);
  hashHi = new Uint32Array(1024);
  hashLo = new Uint32Array(1024);
  prevHi = new Uint32Array(1024);
  prevLo = new Uint32Array(1024);
  /** 1: arrived after a higher id. */
  late = new Uint8Array(1024);

  push(id: number, hash: string, prev: string, late: boolean): void {
    if (this.size === this.ids.length) this.grow();
    const i = this.size++;
    this.ids[i] = id;
    this.hashHi[i] = prefix(hash, 0);
    this.hashLo[i] = prefix(hash, 8);
    this.prevHi[i] = prefix(prev, 0);
    this.prevLo[i] = prefix(prev, 8);
    this.late[i] = late ? 1 : 0;
  }

  private grow(): void {
    const length = this.ids.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Uint8Array>(array: T, make: new (n: number) => T): T => {
      const next = new make(length);
      next.set(array);
      return next;
    };
    this.ids = grown(this.ids, Float64Array);
    this.hashHi = grown(this.hashHi, Uint32Array);
    this.hashLo = grown(this.hashLo, Uint32Array);
    this.prevHi = grown(this.prevHi, Uint32Array);
    this.prevLo = grown(this.prevLo, Uint32Array);
    this.late = grown(this.late, Uint8Array);
  }

  sameHash(a: number, b: number): boolean {
    return this.hashHi[a] === this.hashHi[b] && this.hashLo[a] === this.hashLo[b];
  }

  /** Whether event `b` chains onto event `a`. */
  chainsOnto(b: number, a: number): boolean {
    return this.prevHi[b] === this.hashHi[a] && this.prevLo[b] === this.hashLo[a];
  }
}

/** 32 bits of a hex hash from `at` (genesis, "", is 0: no 64-digit hash has a zero prefix by chance worth counting). */
function prefix(hash: string, at: number): number {
  return hash === GENESIS_HASH ? 0 : Number.parseInt(hash.slice(at, at + 8), 16) >>> 0;
}

function own(value: object, key: string): unknown {
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function isRecord(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const stringOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

export interface CopyEvent {
  id: number;
  hash: string | null;
  prevHash: string;
  content: ChainedContent;
}

/** An event's fields, checked (only own properties are read: `__proto__` or `constructor` keys are data). */
export function readEvent(value: unknown): CopyEvent | string {
  if (!isRecord(value)) return "não é um objeto";
  const id = own(value, "id");
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1) return "id ausente ou inválido";
  const createdAt = own(value, "createdAtMs");
  const action = own(value, "action");
  const result = own(value, "result");
  const actor = own(value, "actor");
  const userId = isRecord(actor) ? own(actor, "userId") : undefined;
  const detailsText = own(value, "detailsText");
  const ip = own(value, "ip");
  const userAgent = own(value, "userAgent");
  const hash = own(value, "hash");
  const prevHash = own(value, "prevHash");
  if (typeof createdAt !== "number" || !Number.isSafeInteger(createdAt)) return `#${id}: createdAtMs inválido`;
  if (typeof action !== "string" || typeof result !== "string") return `#${id}: action ou result ausente`;
  if (!stringOrNull(userId) || !stringOrNull(detailsText) || !stringOrNull(ip) || !stringOrNull(userAgent))
    return `#${id}: actor.userId, detailsText, ip ou userAgent ausente`;
  if (!(hash === null || (typeof hash === "string" && HASH.test(hash)))) return `#${id}: hash inválido`;
  if (!(typeof prevHash === "string" && (prevHash === GENESIS_HASH || HASH.test(prevHash)))) return `#${id}: prevHash inválido`;
  return {
    id,
    hash,
    prevHash,
    content: { id, createdAt, userId, actionType: action, result, actionDetails: detailsText, ipAddress: ip, userAgent },
  };
}

/** The SD-PARAMs of the portal's SD element starting at `start` (its `[`), and where it ends. */
function structuredData(text: string, start: number): { params: Map<string, string>; end: number } | null {
  const params = new Map<string, string>();
  let at = start + SD_ID.length;
  for (;;) {
    while (text[at] === " ") at++;
    if (text[at] === "]") return { params, end: at + 1 };
    const eq = text.indexOf('="', at);
    if (eq < 0) return null;
    const name = text.slice(at, eq);
    if (!/^[a-zA-Z]{1,32}$/.test(name)) return null;
    let value = "";
    at = eq + 2;
    for (;;) {
      const c = text[at];
      if (c === undefined) return null;
      if (c === "\\" && at + 1 < text.length) {
        value += text[at + 1];
        at += 2;
      } else if (c === '"') {
        at++;
        break;
      } else {
        value += c;
        at++;
      }
    }
    params.set(name, value);
  }
}

/** The events a line carries, or why none can be read from it. */
export function eventsOfLine(line: string): { events: unknown[]; sd?: Map<string, string> } | string {
  const text = (line.startsWith("\uFEFF") ? line.slice(1) : line).trimStart();
  if (text.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return "JSON inválido ou incompleto";
    }
    if (!isRecord(parsed)) return "JSON inválido ou incompleto";
    const data = own(parsed, "data");
    if (own(parsed, "type") === "b1.audit.batch" && isRecord(data)) {
      const events = own(data, "events");
      return Array.isArray(events) ? { events } : "lote do webhook sem a lista de eventos";
    }
    const source = own(parsed, "_source");
    return { events: [isRecord(source) ? source : parsed] };
  }
  const sdStart = text.indexOf(SD_ID);
  if (sdStart < 0) return "nem evento JSON nem mensagem syslog do portal";
  const sd = structuredData(text, sdStart);
  if (!sd) return "dados estruturados malformados";
  let message = text.slice(sd.end);
  if (message.startsWith(" ")) message = message.slice(1);
  if (message.startsWith("\uFEFF")) message = message.slice(1);
  try {
    return { events: [JSON.parse(message)], sd: sd.params };
  } catch {
    return "mensagem syslog sem o evento em JSON (ou truncada)";
  }
}

/**
 * Checks events as they come (`line`), then, at `finish`, the chain across them in id order. The
 * file's lines are given to `line` in order, one call per line.
 */
export class CopyChecker {
  private columns = new Columns();
  private lines = 0;
  private unhashed = 0;
  private maxId = 0;
  private problems = new Map<Problem, { count: number; examples: string[] }>();

  problem(kind: Problem, example: string): void {
    let entry = this.problems.get(kind);
    if (!entry) this.problems.set(kind, (entry = { count: 0, examples: [] }));
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(example);
  }

  /** A line too long to be read: skipped and reported. */
  tooLong(lineNumber: number): void {
    this.lines = lineNumber;
    this.problem("line", `linha ${lineNumber}: mais de ${MAX_LINE_BYTES / 1024 / 1024} MiB, não lida`);
  }

  line(lineNumber: number, raw: string): void {
    this.lines = lineNumber;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text.trim() === "") return;
    if (lineNumber === 1 && /^\uFEFF?"?Data\/Hora/.test(text))
      throw new CopyFileError(
        "o arquivo é o CSV da página de auditoria, que não traz o id nem o hash da cadeia: exporte do SIEM os eventos como JSON por linha (ou as mensagens syslog)",
      );
    const read = eventsOfLine(text);
    if (typeof read === "string") return this.problem("line", `linha ${lineNumber}: ${read}`);
    for (const value of read.events) this.event(lineNumber, value, read.sd);
  }

  private event(lineNumber: number, value: unknown, sd: Map<string, string> | undefined): void {
    const event = readEvent(value);
    if (typeof event === "string") return this.problem("event", `linha ${lineNumber}: ${event}`);
    if (sd && (sd.get("id") !== String(event.id) || sd.get("hash") !== (event.hash ?? "") || sd.get("prevHash") !== event.prevHash))
      this.problem("sd", `linha ${lineNumber}: registro #${event.id}`);
    if (event.hash === null) this.unhashed++;
    else if (!chainsFrom(event.prevHash, { ...event.content, hash: event.hash }))
      this.problem("hash", `linha ${lineNumber}: registro #${event.id}`);
    // A row from before the chain passes on the hash it chains onto (toEvents): that is what the next one links to.
    this.columns.push(event.id, event.hash ?? event.prevHash, event.prevHash, event.id < this.maxId);
    this.maxId = Math.max(this.maxId, event.id);
  }

  /** The events' positions by chain id (and by arrival within an id). */
  private order(): Uint32Array {
    const { ids, size, late } = this.columns;
    const order = new Uint32Array(size);
    for (let i = 0; i < size; i++) order[i] = i;
    if (late.subarray(0, size).includes(1)) order.sort((a, b) => ids[a]! - ids[b]! || a - b);
    return order;
  }

  /** Walks the events in chain order; `db` also compares them with the database's rows. */
  async finish(db?: Db): Promise<CopyReport> {
    const c = this.columns;
    const order = this.order();
    let events = 0;
    let repeats = 0;
    let previous = -1;
    let first = -1;
    for (const i of order) {
      if (previous >= 0 && c.ids[i] === c.ids[previous]) {
        repeats++;
        if (!c.sameHash(i, previous)) this.problem("conflict", `registro #${c.ids[i]}`);
        continue;
      }
      events++;
      if (c.late[i]) this.problem("order", `registro #${c.ids[i]}`);
      if (previous < 0) first = i;
      else if (!c.chainsOnto(i, previous)) this.problem("gap", `entre #${c.ids[previous]} e #${c.ids[i]}`);
      previous = i;
    }
    if (db && events > 0) await this.compareWithDb(db, order);
    const ok = [...this.problems.keys()].every((kind) => kind === "order");
    return {
      lines: this.lines,
      events,
      repeats,
      unhashed: this.unhashed,
      firstId: first >= 0 ? c.ids[first]! : null,
      lastId: previous >= 0 ? c.ids[previous]! : null,
      fromGenesis: first >= 0 && c.prevHi[first] === 0 && c.prevLo[first] === 0,
      problems: this.problems,
      ok: events > 0 && ok,
    };
  }

  /** Merges the copy's distinct events with the rows of the same id range, read in chunks. */
  private async compareWithDb(db: Db, order: Uint32Array): Promise<void> {
    const c = this.columns;
    const firstIndex = order[0]!;
    const lastId = c.ids[order[order.length - 1]!]!;
    const before = await chainPointBefore(db, c.ids[firstIndex]!);
    if (prefix(before.hash, 0) !== c.prevHi[firstIndex] || prefix(before.hash, 8) !== c.prevLo[firstIndex])
      this.problem("db_start", `registro #${c.ids[firstIndex]}`);
    let k = 0;
    let after = c.ids[firstIndex]! - 1;
    const nextDistinct = () => {
      while (k + 1 < order.length && c.ids[order[k + 1]!] === c.ids[order[k]!]) k++;
      k++;
    };
    for (;;) {
      const rows = await db
        .select({ id: auditLogs.id, hash: auditLogs.hash })
        .from(auditLogs)
        .where(and(gt(auditLogs.id, after), lte(auditLogs.id, lastId)))
        .orderBy(asc(auditLogs.id))
        .limit(DB_CHUNK);
      for (const row of rows) {
        while (k < order.length && c.ids[order[k]!]! < row.id) {
          this.problem("db_extra", `registro #${c.ids[order[k]!]}`);
          nextDistinct();
        }
        if (k < order.length && c.ids[order[k]!] === row.id) {
          const i = order[k]!;
          const hash = row.hash ?? GENESIS_HASH;
          // An unhashed row's event passes on its prevHash: compare what it carried.
          if (row.hash !== null && (prefix(hash, 0) !== c.hashHi[i] || prefix(hash, 8) !== c.hashLo[i]))
            this.problem("db_hash", `registro #${row.id}`);
          nextDistinct();
        } else this.problem("db_missing", `registro #${row.id}`);
      }
      if (rows.length < DB_CHUNK) break;
      after = rows.at(-1)!.id;
    }
    while (k < order.length) {
      this.problem("db_extra", `registro #${c.ids[order[k]!]}`);
      nextDistinct();
    }
  }
}

/**
 * Streams `file` line by line into `checker` (lines longer than MAX_LINE_BYTES are skipped whole,
 * without being buffered). Throws CopyFileError when the file cannot be read.
 */
export async function feedFile(file: string, checker: CopyChecker): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new CopyFileError(`não foi possível abrir ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? "erro"}`);
  }
  if (!stat.isFile()) throw new CopyFileError(`${JSON.stringify(file)} não é um arquivo`);
  const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
  let parts: Buffer[] = [];
  let length = 0;
  let skipping = false;
  let lineNumber = 0;
  const endLine = () => {
    lineNumber++;
    if (skipping) checker.tooLong(lineNumber);
    else checker.line(lineNumber, Buffer.concat(parts, length).toString("utf8"));
    parts = [];
    length = 0;
    skipping = false;
  };
  const take = (piece: Buffer) => {
    if (skipping) return;
    if (length + piece.length > MAX_LINE_BYTES) {
      skipping = true;
      parts = [];
      length = 0;
      return;
    }
    parts.push(piece);
    length += piece.length;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let newline = chunk.indexOf(10, start); newline >= 0; newline = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, newline));
        endLine();
        start = newline + 1;
      }
      // A copy: the stream may reuse the chunk's memory.
      if (start < chunk.length) take(Buffer.from(chunk.subarray(start)));
    }
  } catch (error) {
    if (error instanceof CopyFileError) throw error;
    throw new CopyFileError(`erro ao ler ${JSON.stringify(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (length > 0 || skipping) endLine();
}

/** The report as printed: the verdict first, then each kind of problem with its count and examples. */
export function describeCopyReport(report: CopyReport, file: string): { lines: string[]; ok: boolean } {
  const out: string[] = [];
  const name = JSON.stringify(file);
  const range = report.firstId === null ? "" : `, registros #${report.firstId} a #${report.lastId}`;
  const repeats = report.repeats ? `; ${report.repeats} repetições do mesmo id (entrega pelo menos uma vez) descartadas` : "";
  if (report.events === 0 && report.problems.size === 0) {
    out.push(`ERRO: nenhum evento de auditoria em ${name} (${report.lines} linhas).`);
    return { lines: out, ok: false };
  }
  if (report.ok) {
    out.push(
      `OK: cópia ${name} confere com a cadeia: ${report.events} eventos${range}; cada hash confere com o conteúdo e cada prevHash com o hash do anterior${repeats}.`,
    );
  } else {
    out.push(`ERRO: a cópia ${name} não confere com a cadeia (${report.events} eventos${range}${repeats}).`);
  }
  for (const [kind, { count, examples }] of report.problems) {
    const label = kind === "order" ? "ATENÇÃO" : "  -";
    out.push(`${label} ${count} ${PROBLEM_TITLES[kind]}: ${examples.join("; ")}${count > examples.length ? "; …" : ""}`);
  }
  if (report.unhashed)
    out.push(`ATENÇÃO: ${report.unhashed} eventos de registros anteriores à cadeia (sem hash) não puderam ser conferidos.`);
  if (report.firstId !== null && !report.fromGenesis)
    out.push(`Nota: o arquivo começa no registro #${report.firstId}; o anterior não está nele (com --db, confere-se com o banco).`);
  return { lines: out, ok: report.ok };
}
