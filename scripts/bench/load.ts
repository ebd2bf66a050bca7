/**
 * Mixed write/read load against a running portal (loopback), shared by `npm run loadtest` and the
 * crash, backup and load tests: sign-ins, page views, trail saves, admin edits and user searches, each loop
 * sequential per person so every acknowledged write can be checked in the database afterwards.
 * Over 200 lines because the generator and its verifier share the cast and the ack records.
 */
import { eq } from "drizzle-orm";
import { auditLogs, roles, trailProgress, userRoles, users } from "../../db/schema/index.ts";
import type { Db, Tx } from "../../src/lib/server/data/db.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import { createUser } from "../../src/lib/server/auth/user.ts";

export type LoadKind = "sign-in" | "page" | "trail" | "admin-edit" | "search";
export const LOAD_KINDS: LoadKind[] = ["sign-in", "page", "trail", "admin-edit", "search"];
const PASSWORD = "Senha@Carga1";
/** Admin edits alternate between these role sets; the stored name's number says which one. */
const EDIT_ROLES = [["visualizador"], ["lider"]];

export interface LoadCast {
  admin: { token: string };
  people: { id: string; email: string; token: string }[];
  targets: { id: string; email: string }[];
}

/** People for the load, created through the app's own code (the CLI path). */
export async function createLoadCast(db: Db, peopleCount = 4, targetCount = 4): Promise<LoadCast> {
  const make = async (label: string, role: string) => {
    const email = `carga-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}@b1.example.com`;
    const created = await createUser(db, { email, fullName: `Carga ${label}`, password: PASSWORD, roleNames: [role], confirmed: true });
    if (!created.ok) throw new Error(`não foi possível criar ${email}: ${created.error}`);
    return { id: created.userId, email, token: (await createSession(db, created.userId)).token };
  };
  const admin = await make("admin", "admin");
  const people = [];
  for (let index = 0; index < peopleCount; index++) people.push(await make(`pessoa${index}`, "visualizador"));
  const targets = [];
  for (let index = 0; index < targetCount; index++) targets.push(await make(`alvo${index}`, "visualizador"));
  return { admin, people, targets };
}

export interface KindStats {
  requests: number;
  ok: number;
  status5xx: number;
  otherStatus: Record<string, number>;
  networkErrors: number;
  latencies: number[];
}

export interface LoadResult {
  seconds: number;
  stats: Record<LoadKind, KindStats>;
  /** Last acknowledged sequence number per person (trail) and per target (admin edit). */
  ackedTrail: Map<string, number>;
  ackedEdits: Map<string, number>;
  /** Acknowledged sign-ins per e-mail (each writes one audit row). */
  ackedSignIns: Map<string, number>;
}

export interface LoadFailure {
  kind: LoadKind;
  path: string;
  beganMs: number;
  endedMs: number;
  /** The status, or the network error's message. */
  what: string;
}

export interface LoadOptions {
  baseUrl: string;
  cast: LoadCast;
  durationMs: number;
  /** Stop each loop after this many requests (bounds the run besides the duration). */
  maxPerLoop?: number;
  signal?: AbortSignal;
  /** Hears each failed request (a 5xx or no answer), with when it began and ended (ms since the load began). */
  onFailure?: (failure: LoadFailure) => void;
  /** Sees every response (its body already read), e.g. to check the headers of refusals. */
  onResponse?: (kind: LoadKind, response: Response, body: string) => void;
  /** The client's fetch (the reference cluster's tries the other HAProxy of its pair on a connection error). */
  fetch?: typeof fetch;
}

/** Runs one loop per person and kind until the duration, the count or the signal ends it. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { baseUrl, cast } = options;
  const deadline = Date.now() + options.durationMs;
  const stats = Object.fromEntries(
    LOAD_KINDS.map((kind) => [kind, { requests: 0, ok: 0, status5xx: 0, otherStatus: {}, networkErrors: 0, latencies: [] }]),
  ) as unknown as Record<LoadKind, KindStats>;
  const result: LoadResult = { seconds: 0, stats, ackedTrail: new Map(), ackedEdits: new Map(), ackedSignIns: new Map() };
  const started = performance.now();

  async function send(kind: LoadKind, path: string, init: RequestInit, token: string | null): Promise<boolean> {
    const stat = stats[kind];
    stat.requests++;
    const begin = performance.now();
    try {
      const response = await (options.fetch ?? fetch)(baseUrl + path, {
        ...init,
        redirect: "manual",
        signal: options.signal,
        headers: { "content-type": "application/json", origin: baseUrl, ...(token ? { cookie: `b1_session=${token}` } : {}) },
      });
      if (options.onResponse) options.onResponse(kind, response, await response.text());
      else await response.arrayBuffer();
      stat.latencies.push(performance.now() - begin);
      if (response.status >= 500) {
        stat.status5xx++;
        options.onFailure?.({
          kind,
          path,
          beganMs: begin - started,
          endedMs: performance.now() - started,
          what: `HTTP ${response.status}`,
        });
      }
      if (response.ok) stat.ok++;
      else stat.otherStatus[response.status] = (stat.otherStatus[response.status] ?? 0) + 1;
      return response.ok;
    } catch (error) {
      stat.networkErrors++;
      const what = error instanceof Error ? String((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      options.onFailure?.({ kind, path, beganMs: begin - started, endedMs: performance.now() - started, what });
      return false;
    }
  }

  const running = () => Date.now() < deadline && !options.signal?.aborted;
  const loop = async (body: (sequence: number) => Promise<void>) => {
    for (let sequence = 1; running() && sequence <= (options.maxPerLoop ?? Infinity); sequence++) await body(sequence);
  };
  const loops: Promise<void>[] = [];
  for (const person of cast.people) {
    loops.push(
      loop(async () => {
        await send("page", "/faq", { method: "GET" }, person.token);
      }),
      loop(async (sequence) => {
        const body = { completed: [], answers: {}, projectName: `projeto ${sequence}`, updatedAt: Date.now() };
        if (await send("trail", "/api/trail", { method: "PUT", body: JSON.stringify(body) }, person.token))
          result.ackedTrail.set(person.id, sequence);
      }),
      loop(async () => {
        const body = { email: person.email, password: PASSWORD };
        // Counted, not numbered: a refused sign-in (a 503 while the database is away) writes no audit row.
        if (await send("sign-in", "/api/auth/sign-in", { method: "POST", body: JSON.stringify(body) }, null))
          result.ackedSignIns.set(person.email, (result.ackedSignIns.get(person.email) ?? 0) + 1);
      }),
    );
  }
  for (const target of cast.targets) {
    loops.push(
      loop(async (sequence) => {
        const body = { fullName: `Alvo ${sequence}`, roles: EDIT_ROLES[sequence % 2] };
        const path = `/api/admin/users/${target.id}`;
        if (await send("admin-edit", path, { method: "PUT", body: JSON.stringify(body) }, cast.admin.token))
          result.ackedEdits.set(target.id, sequence);
      }),
    );
  }
  // The admin's user search, as the panel sends it while someone types a name.
  loops.push(
    loop(async (sequence) => {
      await send(
        "search",
        `/api/admin/users?q=${encodeURIComponent(sequence % 2 ? "carga" : "alvo")}`,
        { method: "GET" },
        cast.admin.token,
      );
    }),
  );
  await Promise.all(loops);
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * What must hold in the database after a load (even one cut by a crash): every acknowledged
 * write is there, and each admin edit is whole (name, roles and its audit row together).
 * Returns the problems found; empty means consistent.
 *
 * The server may still be committing edits whose requests were aborted, so every read happens in
 * one snapshot (REPEATABLE READ on PostgreSQL; SQLite's transaction holds the write lock): read
 * statement by statement, the old name and the next edit's roles looked like a half-applied edit.
 */
export async function verifyLoad(db: Db, cast: LoadCast, result: LoadResult): Promise<string[]> {
  return db.transaction((tx) => verifySnapshot(tx, cast, result), { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function verifySnapshot(db: Tx, cast: LoadCast, result: LoadResult): Promise<string[]> {
  const problems: string[] = [];
  for (const person of cast.people) {
    const acked = result.ackedTrail.get(person.id) ?? 0;
    const row = (await db.select().from(trailProgress).where(eq(trailProgress.userId, person.id)))[0];
    const stored = row ? Number(/projeto (\d+)/.exec(row.data)?.[1] ?? 0) : 0;
    if (stored < acked) problems.push(`trilha de ${person.email}: confirmada ${acked}, gravada ${stored}`);
  }
  const roleNames = new Map((await db.select().from(roles)).map((role) => [role.id, role.name]));
  for (const target of cast.targets) {
    const acked = result.ackedEdits.get(target.id) ?? 0;
    const user = (await db.select().from(users).where(eq(users.id, target.id)))[0];
    const stored = Number(/Alvo (\d+)/.exec(user?.fullName ?? "")?.[1] ?? 0);
    if (stored < acked) problems.push(`edição de ${target.id}: confirmada ${acked}, gravada ${stored}`);
    if (stored > 0) {
      const held = (await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, target.id)))
        .map((link) => roleNames.get(link.roleId))
        .sort();
      if (JSON.stringify(held) !== JSON.stringify(EDIT_ROLES[stored % 2]))
        problems.push(`edição ${stored} de ${target.id} pela metade: perfis ${held.join(",")}`);
    }
    const audited = (
      await db.select({ details: auditLogs.actionDetails }).from(auditLogs).where(eq(auditLogs.actionType, "admin_user_updated"))
    ).filter((row) => row.details?.includes(`"${target.email}"`) && row.details.includes(`"after":{"full_name":"Alvo ${stored}"`)).length;
    if (stored > 0 && audited === 0) problems.push(`edição ${stored} de ${target.id} sem registro de auditoria`);
  }
  const logins = await db
    .select({ details: auditLogs.actionDetails, userId: auditLogs.userId })
    .from(auditLogs)
    .where(eq(auditLogs.actionType, "user_login_success"));
  for (const person of cast.people) {
    const acked = result.ackedSignIns.get(person.email) ?? 0;
    const stored = logins.filter((row) => row.userId === person.id).length;
    if (stored < acked) problems.push(`logins de ${person.email}: confirmados ${acked}, auditados ${stored}`);
  }
  return problems;
}

const percentile = (values: number[], p: number) =>
  values.length
    ? Math.round([...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]! * 10) / 10
    : 0;

/** One table row per kind: throughput and latency. */
export function summarizeLoad(result: LoadResult) {
  return Object.fromEntries(
    LOAD_KINDS.map((kind) => {
      const stat = result.stats[kind];
      return [
        kind,
        {
          req: stat.requests,
          "req/s": Math.round((stat.requests / result.seconds) * 10) / 10,
          "2xx": stat.ok,
          "5xx": stat.status5xx,
          outros: Object.entries(stat.otherStatus)
            .map(([status, count]) => `${status}×${count}`)
            .join(" "),
          "erros de rede": stat.networkErrors,
          "p50 ms": percentile(stat.latencies, 50),
          "p99 ms": percentile(stat.latencies, 99),
        },
      ];
    }),
  );
}
