/**
 * The cost of the shared engine as a figure: the same signed-in requests against a gate on SQLite
 * and a gate on a throw-away PostgreSQL (started like the test cluster, loopback only). The
 * PostgreSQL side is prepared through the portal's own commands (db:migrate, the user CLI, the
 * sign-in endpoint), so this process never mixes the two engines' tables.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { findBinDir, freePort, startCluster } from "../pg-cluster.mjs";

/** One autocannon run as the bench reports it (both engines' scenarios and bench.ts's own). */
export interface EngineLoad {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
}

type Load = (url: string, options: { headers?: Record<string, string> }) => Promise<EngineLoad>;

const EMAIL = "bench-pg@b1.example.com";
const PASSWORD = "Senha@Bench1";

function runScript(script: string, argv: string[], env: Record<string, string>): void {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...argv], { env: { ...process.env, ...env }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${script} falhou: ${result.stderr || result.stdout}`);
}

function startGate(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--disable-proto=throw", "dist/gate/main.mjs"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /no ar em (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on("exit", (code) => reject(new Error(`o gate saiu com código ${code}`)));
  });
}

/** Signed-in page and a database-reading API on each engine; null when no PostgreSQL can run here. */
export async function benchEngines(sqlite: { gateUrl: string; token: string }, load: Load): Promise<Record<string, EngineLoad> | null> {
  if (!findBinDir()) {
    console.log("• PostgreSQL não encontrado: cenário PostgreSQL pulado (instale o pacote postgresql)");
    return null;
  }
  const cluster = await startCluster();
  let gate: { child: ChildProcess; url: string } | undefined;
  try {
    const env = { DATABASE_URL: cluster.url, AUTH_ALLOWED_DOMAINS: "b1.example.com", RATE_LIMIT_MULTIPLIER: "1000000" };
    runScript("scripts/db-migrate.ts", [], env);
    runScript("scripts/user.ts", ["add", "--email", EMAIL, "--name", "Bench PG", "--password", PASSWORD, "--role", "visualizador"], env);
    const port = await freePort();
    // PUBLIC_URL is where the gate listens: the sign-in below passes the origin check.
    gate = await startGate({ ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}` });
    const signIn = await fetch(`${gate.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: gate.url },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const token = /b1_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
    if (!token) throw new Error(`login no gate PostgreSQL falhou (${signIn.status})`);
    const browser = { "accept-encoding": "gzip, deflate, br, zstd" };
    const pgCookie = { cookie: `b1_session=${token}` };
    const sqliteCookie = { cookie: `b1_session=${sqlite.token}` };
    await load(`${gate.url}/faq`, { headers: { ...pgCookie, ...browser } }); // warm-up
    return {
      "GET /faq conectado — SQLite": await load(`${sqlite.gateUrl}/faq`, { headers: { ...sqliteCookie, ...browser } }),
      "GET /faq conectado — PostgreSQL": await load(`${gate.url}/faq`, { headers: { ...pgCookie, ...browser } }),
      "GET /api/trail (lê o banco) — SQLite": await load(`${sqlite.gateUrl}/api/trail`, { headers: sqliteCookie }),
      "GET /api/trail (lê o banco) — PostgreSQL": await load(`${gate.url}/api/trail`, { headers: pgCookie }),
    };
  } finally {
    // The gate goes first, so no request of the last load meets a stopped database.
    if (gate && gate.child.exitCode === null) {
      const exited = new Promise((resolve) => gate!.child.once("exit", resolve));
      gate.child.kill();
      await exited;
    }
    await cluster.stop();
  }
}
