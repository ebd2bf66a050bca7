/**
 * `npm run bench -- --lb [--duration <s>] [--instances <n>]`, run by bench.ts in a process whose
 * DATABASE_URL names an empty PostgreSQL database: three instances (by default) behind HAProxy,
 * the session and role checks, then the mixed load for 60 s with the last instance SIGKILLed
 * half-way; prints each figure with its target and yes/no. Exit code 1 when one is missed.
 */
import os from "node:os";
import { closeDatabase, openDatabase } from "../../src/lib/server/data/db.ts";
import { startLbCluster } from "./cluster.ts";
import { failedRequests, lbLoad, roleChangeEverywhere, sessionEndedEverywhere } from "./lb.ts";
import { loadAverage } from "./process.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const seconds = option("--duration", 60);
const instances = option("--instances", 3);
const url = process.env.DATABASE_URL!;

const db = await openDatabase(url, { migrate: true });
const cluster = await startLbCluster({ databaseUrl: url, instances });
const rows: { medida: string; valor: string; meta: string; ok: string }[] = [];
const row = (figure: string, value: string, target: string, ok: boolean) =>
  rows.push({ medida: figure, valor: value, meta: target, ok: ok ? "sim" : "NÃO" });
let code = 1;
try {
  console.log(`• ${instances} instâncias atrás do HAProxy em ${cluster.url} · carga média ${loadAverage()}`);
  const session = await sessionEndedEverywhere(cluster, db);
  row(
    "sessão encerrada numa instância, nas outras",
    session.after.join(", "),
    "302 /auth em todas",
    session.after.every((s) => s.startsWith("302 /auth")),
  );
  const role = await roleChangeEverywhere(cluster, db);
  row(
    "perfil removido numa instância, nas outras",
    role.after.join(", "),
    "302 /acesso-negado em todas",
    role.after.every((s) => s.startsWith("302 /acesso-negado")),
  );

  console.log(`• carga mista por ${seconds} s pelo balanceador, sem falhas …`);
  const steady = await lbLoad(cluster, db, { seconds, people: 8, targets: 4 });
  console.table(steady.summary);
  row(
    `carga mista ${seconds} s (${instances} instâncias)`,
    `${failedRequests(steady)} falhas`,
    "0 falhas",
    failedRequests(steady) === 0 && steady.problems.length === 0,
  );

  console.log(`• carga mista por ${seconds} s com ${cluster.gates.at(-1)!.name} morta (SIGKILL) na metade …`);
  const killed = await lbLoad(cluster, db, { seconds, people: 8, targets: 4, killAfterMs: (seconds * 1000) / 2 });
  console.table(killed.summary);
  console.log(`Requisições que falharam (${killed.failures.length}; ${killed.killed} morta em ${killed.killedAtMs} ms):`);
  for (const f of killed.failures)
    console.log(`  - ${f.kind} ${f.path}: ${f.what} (início ${Math.round(f.beganMs)} ms, fim ${Math.round(f.endedMs)} ms)`);
  row(
    "instância morta no meio: falhas",
    `${killed.failures.length} (${killed.inFlightAtKill} em andamento na morte)`,
    "só as em andamento na instância morta",
    killed.failures.length === killed.inFlightAtKill && killed.problems.length === 0,
  );
  for (const problem of [...steady.problems, ...killed.problems]) console.log(`  escrita confirmada ausente: ${problem}`);
  console.log(`\nBalanceador — cada medida com a sua meta (carga média ${loadAverage()}, ${os.cpus().length} núcleos):`);
  console.table(rows);
  code = rows.every((r) => r.ok === "sim") ? 0 : 1;
} finally {
  await cluster.stop();
  await closeDatabase(db);
}
process.exit(code);
