/**
 * `npm run loadtest [-- --duration <s> --people <n> --targets <n> --max <n> --database-url <postgres://…>]`:
 * starts the BUILT portal on loopback with a fresh database (a temporary SQLite file, or the given
 * empty PostgreSQL database, with DATABASE_URL set to the same address), runs concurrent sign-ins, page views, trail saves and
 * admin edits for a bounded time, prints throughput and latency per kind, then checks there was
 * no 5xx and that every acknowledged write is in the database. Exit code 1 when a check fails.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ENGINE, engineOf } from "../db/schema/index.ts";
import { closeDatabase, openDatabase } from "../src/lib/server/data/db.ts";
import { createLoadCast, LOAD_KINDS, runLoad, summarizeLoad, verifyLoad } from "./bench/load.ts";
import { freePort } from "./pg-cluster.mjs";

const { values } = parseArgs({
  options: {
    duration: { type: "string" },
    people: { type: "string" },
    targets: { type: "string" },
    max: { type: "string" },
    "database-url": { type: "string" },
  },
});
const seconds = Math.min(600, Number(values.duration ?? 10));
const people = Math.min(50, Number(values.people ?? 8));
const targets = Math.min(50, Number(values.targets ?? 4));
const maxPerLoop = values.max ? Number(values.max) : undefined;
if (![seconds, people, targets].every((n) => Number.isInteger(n) && n > 0)) {
  console.error("Erro: --duration, --people e --targets devem ser inteiros > 0");
  process.exit(1);
}
if (!fs.existsSync("dist/gate/main.mjs")) {
  console.error("Erro: dist/ não existe: rode `npm run build` antes");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-loadtest-"));
const databasePath = path.join(dataDir, "db.sqlite");
const target = values["database-url"] ?? databasePath;
// This process reads and checks the database with the tables of DATABASE_URL's engine.
if (engineOf(target) !== ENGINE) {
  console.error("Erro: --database-url e DATABASE_URL devem apontar para o mesmo motor (PostgreSQL nos dois, ou nenhum)");
  process.exit(1);
}
const db = await openDatabase(target, { migrate: true });
const port = await freePort();
const child = spawn(process.execPath, ["--disable-proto=throw", "dist/gate/main.mjs"], {
  // Loopback only; rate limits raised because every request comes from one address. PUBLIC_URL is
  // where the gate listens, so the writes pass the origin check; the load cast's domain is allowed.
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_ALLOWED_DOMAINS: "b1.example.com",
    DATABASE_PATH: databasePath,
    ...(target === databasePath ? {} : { DATABASE_URL: target }),
    RATE_LIMIT_MULTIPLIER: "1000000",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
let exitCode = 1;
try {
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("no ar em ")) resolve(`http://127.0.0.1:${port}`);
    });
    child.once("exit", (code) => reject(new Error(`o servidor saiu com código ${code}`)));
  });
  const cast = await createLoadCast(db, people, targets);
  console.log(`Carga em ${baseUrl} por ${seconds} s: ${people} pessoas (login, página, trilha) e ${targets} edições de admin em paralelo…`);
  const result = await runLoad({ baseUrl, cast, durationMs: seconds * 1000, maxPerLoop });
  console.table(summarizeLoad(result));
  const errors5xx = LOAD_KINDS.reduce((sum, kind) => sum + result.stats[kind].status5xx, 0);
  const network = LOAD_KINDS.reduce((sum, kind) => sum + result.stats[kind].networkErrors, 0);
  const problems = await verifyLoad(db, cast, result);
  console.log(`5xx: ${errors5xx} · erros de rede: ${network} · escritas confirmadas ausentes ou pela metade: ${problems.length}`);
  for (const problem of problems) console.log(`  - ${problem}`);
  exitCode = errors5xx === 0 && network === 0 && problems.length === 0 ? 0 : 1;
  console.log(exitCode === 0 ? "Resultado: ok" : "Resultado: FALHOU");
} catch (error) {
  console.error(`Erro: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  await closeDatabase(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
