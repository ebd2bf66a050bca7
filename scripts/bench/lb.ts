/**
 * What must hold with several instances behind the balancer (scripts/bench/cluster.ts): a session
 * ended on one instance is refused by every other at its next request; a role removed on one is
 * gone everywhere at once; the mixed load through the balancer has no failure; and when one
 * instance is killed mid-run, the only failed requests are those it had in flight.
 */
import { createUser } from "../../src/lib/server/auth/user.ts";
import type { Db } from "../../src/lib/server/data/db.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import type { Gate, LbCluster } from "./cluster.ts";
import { createLoadCast, LOAD_KINDS, runLoad, summarizeLoad, verifyLoad, type LoadFailure } from "./load.ts";

const PASSWORD = "Senha@Balanc1";

async function person(db: Db, label: string, roles: string[]) {
  const email = `lb-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}@b1.example.com`;
  const created = await createUser(db, { email, fullName: `LB ${label}`, password: PASSWORD, roleNames: roles, confirmed: true });
  if (!created.ok) throw new Error(`não foi possível criar ${email}: ${created.error}`);
  return { id: created.userId, email, token: (await createSession(db, created.userId)).token };
}

/** Status of a signed-in GET straight to one instance (no redirect followed). */
async function statusAt(gate: Gate | { url: string }, urlPath: string, token: string, origin: string): Promise<string> {
  const response = await fetch(gate.url + urlPath, { redirect: "manual", headers: { cookie: `b1_session=${token}`, origin } });
  await response.arrayBuffer();
  return response.status === 302 ? `302 ${response.headers.get("location")}` : String(response.status);
}

/**
 * Signs in through the balancer, checks the session on every instance, signs out on the first and
 * returns what each other instance answers at its very next request (each should send to /auth).
 */
export async function sessionEndedEverywhere(cluster: LbCluster, db: Db): Promise<{ before: string[]; after: string[] }> {
  const someone = await person(db, "sessao", ["visualizador"]);
  const signIn = await fetch(`${cluster.url}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: cluster.url },
    body: JSON.stringify({ email: someone.email, password: PASSWORD }),
  });
  const token = /b1_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
  if (signIn.status !== 200 || !token) throw new Error(`login pelo balanceador falhou (${signIn.status})`);
  const before = await Promise.all(cluster.gates.map((gate) => statusAt(gate, "/faq", token, cluster.url)));
  const [first, ...others] = cluster.gates;
  const signOut = await fetch(`${first!.url}/api/auth/sign-out`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: `b1_session=${token}`, origin: cluster.url },
  });
  if (signOut.status !== 303) throw new Error(`logout em ${first!.name} respondeu ${signOut.status}`);
  const after = [];
  for (const gate of others) after.push(await statusAt(gate, "/faq", token, cluster.url));
  return { before, after };
}

/** A líder's page on every instance (warming each session cache), the role removed on the first, then each other's next answer. */
export async function roleChangeEverywhere(cluster: LbCluster, db: Db): Promise<{ before: string[]; after: string[] }> {
  const admin = await person(db, "admin", ["admin"]);
  const leader = await person(db, "lider", ["visualizador", "lider"]);
  const before = await Promise.all(cluster.gates.map((gate) => statusAt(gate, "/comite-ia", leader.token, cluster.url)));
  const [first, ...others] = cluster.gates;
  const removed = await fetch(`${first!.url}/api/admin/users/${leader.id}`, {
    method: "PUT",
    headers: { cookie: `b1_session=${admin.token}`, origin: cluster.url, "content-type": "application/json" },
    body: JSON.stringify({ fullName: "LB lider", roles: ["visualizador"] }),
  });
  if (removed.status !== 200) throw new Error(`remoção do perfil em ${first!.name} respondeu ${removed.status}`);
  const after = [];
  for (const gate of others) after.push(await statusAt(gate, "/comite-ia", leader.token, cluster.url));
  return { before, after };
}

export interface LbLoadFigures {
  seconds: number;
  summary: ReturnType<typeof summarizeLoad>;
  failures: LoadFailure[];
  /** When the instance was killed (ms since the load began), or null. */
  killedAtMs: number | null;
  killed: string | null;
  /** Failures whose request began before the kill and ended after it: in flight on some instance when it died. */
  inFlightAtKill: number;
  /** Acknowledged writes missing from the database afterwards (verifyLoad). */
  problems: string[];
}

/** The mixed load through the balancer for `seconds`; with `killAfterMs`, the last instance is SIGKILLed then. */
export async function lbLoad(
  cluster: LbCluster,
  db: Db,
  options: { seconds: number; people: number; targets: number; killAfterMs?: number },
): Promise<LbLoadFigures> {
  const cast = await createLoadCast(db, options.people, options.targets);
  const failures: LoadFailure[] = [];
  const began = performance.now();
  let killedAtMs: number | null = null;
  const victim = cluster.gates.at(-1)!;
  const killer =
    options.killAfterMs === undefined
      ? null
      : new Promise<void>((resolve) =>
          setTimeout(() => {
            killedAtMs = performance.now() - began;
            void cluster.kill(victim).then(resolve);
          }, options.killAfterMs),
        );
  const result = await runLoad({ baseUrl: cluster.url, cast, durationMs: options.seconds * 1000, onFailure: (f) => failures.push(f) });
  await killer;
  const killedAt = killedAtMs as number | null;
  return {
    seconds: Math.round(result.seconds * 10) / 10,
    summary: summarizeLoad(result),
    failures,
    killedAtMs: killedAt === null ? null : Math.round(killedAt),
    killed: killer ? victim.name : null,
    inFlightAtKill: killedAt === null ? 0 : failures.filter((f) => f.beganMs <= killedAt && f.endedMs >= killedAt).length,
    problems: await verifyLoad(db, cast, result),
  };
}

/** Failed requests in all (5xx and network errors). */
export const failedRequests = (figures: LbLoadFigures) =>
  LOAD_KINDS.reduce((sum, kind) => sum + Number(figures.summary[kind]!["5xx"]) + Number(figures.summary[kind]!["erros de rede"]), 0);
