/**
 * The reference cluster (`npm run cluster -- up|down|status|roll`, scripts/cluster-cli.ts) on loopback, its data under
 * data/cluster/ — etcd (three members), two PostgreSQL nodes under Patroni (synchronous_mode,
 * failsafe_mode), a pair of HAProxy balancing HTTP over the gates (clients use both addresses), one
 * HAProxy routing to the primary through Patroni's GET /primary, PgBouncer in transaction pooling,
 * and the gate instances (three; `--instances N`); between each Patroni and etcd, that node's relays
 * (scripts/etcd-partition-proxy.ts, loopback only: the one-sided partition scenario cuts them). The configuration files
 * are those of deploy/ (patroni.yml, haproxy.cfg, haproxy-postgres.cfg, pgbouncer.ini) with only
 * addresses, ports and paths changed (docs/implantacao.md). Ports: B1_CLUSTER_PORT (20400) and the
 * ones after it. `roll` replaces the instances one by one with the current build (dist/), each
 * drained through HAProxy's runtime API first; `roll --load <s>` runs the mixed load meanwhile.
 * Everything started runs detached, its process id in data/cluster/run/; `down` stops exactly those.
 * The control plane is authenticated as in production (issue 62 item 1): every password and key is
 * generated here (crypto random) and kept in data/cluster/secrets/ (folder 0700, files 0600), Patroni's
 * unsafe REST endpoints need Basic auth from an allow-listed address, etcd runs with authentication
 * on (a `patroni` user whose role reaches only /service/), PostgreSQL and PgBouncer ask for SCRAM
 * passwords, PgBouncer's admin console is closed; a generated file that still holds a placeholder
 * (TROQUE-…) or two equal passwords is refused before anything starts (`check` does it for any file).
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { parseDocument } from "yaml";
import { findBinDir } from "./pg-cluster.mjs";
import { privateDir } from "./private-dir.mjs";
import { findPgbouncer } from "./pgbouncer.mjs";
import { findHaproxy, HAPROXY_CONFIG, haproxyConfig } from "./bench/cluster.ts";

export const ROOT = path.resolve("data/cluster");
const RUN = path.join(ROOT, "run");
const LOGS = path.join(ROOT, "logs");
/** B1_CLUSTER_PORT: the first of the ~35 loopback ports the cluster takes (default 20400). */
export function clusterBasePort(value: string | undefined): number {
  if (value === undefined || value === "") return 20400;
  if (!/^\d{4,5}$/.test(value) || Number(value) < 1024 || Number(value) > 65_000) {
    throw new Error(`B1_CLUSTER_PORT inválida (${JSON.stringify(value.slice(0, 20))}): um número de 1024 a 65000`);
  }
  return Number(value);
}
const BASE = (() => {
  try {
    return clusterBasePort(process.env.B1_CLUSTER_PORT);
  } catch (error) {
    // One Portuguese line, no stack: nothing was started.
    console.error((error as Error).message);
    return process.exit(2);
  }
})();

export const PORTS = {
  /** The HTTP pair (haproxy-a, haproxy-b): the public address and the second one. */
  http: BASE,
  httpPair: [BASE, BASE + 13],
  etcd: [BASE + 1, BASE + 9, BASE + 10],
  etcdPeer: [BASE + 2, BASE + 11, BASE + 12],
  pg: [BASE + 3, BASE + 4],
  rest: [BASE + 5, BASE + 6],
  pgPrimary: BASE + 7,
  bouncer: BASE + 8,
  gate: (index: number) => BASE + 20 + index,
};
export const NODES = ["pg1", "pg2"] as const;
/**
 * The names etcd member `member` advertises to its clients (etcd-e1.b1-cluster…), and the loopback
 * address node `index`'s Patroni finds behind them: its own relays (startEtcdRelay), on the etcd
 * ports. Each Patroni runs with its own /etc/hosts (a private mount namespace, patroniCommand), so
 * the members' list Patroni asks etcd for (it does, then talks to what it got) leads it back to
 * its own relays — the discovery of production is kept, and cutting one node's relays cuts that node only.
 */
export const etcdClientName = (member: number) => `etcd-${ETCD_MEMBERS[member]}.b1-cluster`;
export const etcdRelayAddress = (index: number) => `127.0.0.${11 + index}`;
export const ETCD_MEMBERS = ["e1", "e2", "e3"] as const;
/** The two HAProxy in front of the gates, and the one in front of PostgreSQL (beside PgBouncer). */
export const HTTP_PROXIES = ["haproxy-a", "haproxy-b"] as const;
export const PG_PROXY = "haproxy-pg";
export const HTTP_URL = `http://127.0.0.1:${PORTS.http}`;
/** Both addresses of the pair (the portal's DNS name with two A records, in production). */
export const HTTP_URLS = PORTS.httpPair.map((port) => `http://127.0.0.1:${port}`);
/** DATABASE_URL without its password, for messages. */
export const DATABASE_URL_SHOWN = `postgres://postgres:***@127.0.0.1:${PORTS.bouncer}/b1`;
/** Each HAProxy's runtime API socket (mode 600). */
export const adminSocket = (name: string) => path.join(RUN, `${name}.sock`);
export const ADMIN_SOCKET = adminSocket(HTTP_PROXIES[0]);
export const SECRETS_DIR = path.join(ROOT, "secrets");

/** The cluster's secrets: one file each in data/cluster/secrets/. */
export const SECRET_NAMES = ["superuser", "replication", "rewind", "restapi", "etcd-root", "etcd-patroni"] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Record<SecretName, string>;

/** The placeholders of deploy/ (a production file with one left is refused) and the secret that replaces each in the cluster. */
export const PLACEHOLDERS: Record<string, SecretName> = {
  "TROQUE-senha-da-api-do-patroni": "restapi",
  "TROQUE-senha-do-etcd-para-o-patroni": "etcd-patroni",
  "TROQUE-senha-de-replicacao": "replication",
  "TROQUE-senha-do-superusuario": "superuser",
  "TROQUE-senha-do-pg-rewind": "rewind",
};
/** A placeholder, in any spelling used in deploy/ so far (`troque-esta-senha` until issue 62). */
const PLACEHOLDER_PATTERN = /troque-|change-?me/i;

/**
 * The cluster's secrets, each generated once (32 random bytes, base64url: 43 characters) and then
 * read back: the folder must be this user's and writable by nobody else (0700), each file this
 * user's and readable by nobody else (0600); anything else is refused, nothing is started.
 */
export function clusterSecrets(dir = SECRETS_DIR): Secrets {
  privateDir(dir);
  const secrets = {} as Secrets;
  for (const name of SECRET_NAMES) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) {
      // Written whole under a temporary name, then linked in place: a run starting at the same time
      // never reads a half-written file, and the first link wins (EEXIST: the other run's secret).
      const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
      fs.writeFileSync(partial, crypto.randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
      try {
        fs.linkSync(partial, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      } finally {
        fs.rmSync(partial, { force: true });
      }
    }
    const stat = fs.lstatSync(file);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
      throw new Error(
        `Segredo recusado: ${file} precisa ser um arquivo seu com modo 600 (está ${(stat.mode & 0o777).toString(8)}, dono uid ${stat.uid}); nada foi iniciado.`,
      );
    }
    const value = fs.readFileSync(file, "utf8").trim();
    if (!/^[\w-]{32,200}$/.test(value))
      throw new Error(`Segredo recusado: ${file} não tem um segredo válido (32+ letras, números, _ ou -); apague-o para gerar outro.`);
    secrets[name] = value;
  }
  if (new Set(Object.values(secrets)).size !== SECRET_NAMES.length)
    throw new Error(`Segredos recusados: dois arquivos de ${dir} têm o mesmo valor.`);
  return secrets;
}

/** The gates' DATABASE_URL (through PgBouncer), with the generated password. */
export function databaseUrl(secrets: Secrets = clusterSecrets()): string {
  return `postgres://postgres:${secrets.superuser}@127.0.0.1:${PORTS.bouncer}/b1`;
}

/**
 * What keeps a configuration file from starting (Portuguese, one line each; empty when none): a
 * placeholder left (TROQUE-…), the same password on two lines, and, for a Patroni file, a REST API
 * or etcd section without authentication or the REST API without an allow-list.
 */
export function configProblems(text: string, file: string): string[] {
  const problems: string[] = [];
  const passwords = new Map<string, number>();
  text.split("\n").forEach((line, index) => {
    const code = line.replace(/^\s*[#;].*$/, "").replace(/\s#.*$/, "");
    const placeholder = PLACEHOLDER_PATTERN.exec(code);
    if (placeholder) {
      problems.push(
        `${file}:${index + 1}: ainda tem um valor de exemplo (${JSON.stringify(code.trim().slice(0, 80))}); troque por um segredo aleatório (openssl rand -base64 24) antes de iniciar.`,
      );
    }
    const password = /^\s*password\s*[:=]\s*["']?([^"'\s]+)/.exec(code)?.[1];
    if (password) {
      const first = passwords.get(password);
      if (first !== undefined) problems.push(`${file}:${index + 1}: a mesma senha da linha ${first}; cada usuário precisa da sua.`);
      else passwords.set(password, index + 1);
    }
  });
  if (/\.ya?ml$/.test(file) && /^restapi:/m.test(text)) {
    let config: Record<string, Record<string, unknown> | undefined> | null;
    try {
      const document = parseDocument(text);
      if (document.errors.length > 0) throw document.errors[0];
      config = document.toJS({ maxAliasCount: 100 }) as typeof config;
    } catch (error) {
      return [
        ...problems,
        `${file}: YAML inválido (${String((error as Error).message)
          .split("\n")[0]!
          .slice(0, 120)}): nada foi iniciado.`,
      ];
    }
    const restapi = config?.restapi;
    const auth = restapi?.authentication as { username?: unknown; password?: unknown } | undefined;
    if (typeof auth?.username !== "string" || typeof auth.password !== "string" || auth.password.length < 16) {
      problems.push(`${file}: restapi.authentication (usuário e senha de 16+ caracteres) ausente: a API do Patroni aceitaria qualquer um.`);
    }
    if (!Array.isArray(restapi?.allowlist) || restapi.allowlist.length === 0) {
      problems.push(`${file}: restapi.allowlist ausente: diga de quais endereços a API do Patroni aceita mudanças.`);
    }
    const etcd = config?.etcd3 ?? config?.etcd;
    if (etcd && (typeof etcd.username !== "string" || typeof etcd.password !== "string")) {
      problems.push(`${file}: etcd3.username/password ausentes: o etcd precisa de autenticação.`);
    }
    problems.push(...availabilityProblems(config, file));
  }
  return problems;
}

/** How many etcd endpoints a Patroni `etcd3`/`etcd` section names (`hosts` as a list or "a,b,c", or one `host`/`url`). */
function etcdHostCount(etcd: Record<string, unknown>): number {
  const hosts = etcd.hosts;
  const list = Array.isArray(hosts) ? hosts : typeof hosts === "string" ? hosts.split(",") : [];
  const named = new Set(list.map((host) => String(host).trim()).filter((host) => host !== ""));
  if (named.size > 0) return named.size;
  // DNS discovery (SRV records): the member count is in DNS, not here; taken as three.
  if (typeof etcd.srv === "string" || typeof etcd.srv_suffix === "string") return 3;
  return typeof etcd.host === "string" || typeof etcd.url === "string" ? 1 : 0;
}

/**
 * Issue 63: what would let one fault stop writes for long in a Patroni file — fewer than three
 * etcd members (one lost, or frozen, and the primary demotes), failsafe_mode off (etcd away = the
 * primary demotes even though both nodes are fine), or timings that break Patroni's rule
 * loop_wait + 2 × retry_timeout ≤ ttl.
 */
function availabilityProblems(config: Record<string, Record<string, unknown> | undefined> | null, file: string): string[] {
  const problems: string[] = [];
  const etcd = config?.etcd3 ?? config?.etcd;
  if (!etcd || etcdHostCount(etcd) < 3) {
    problems.push(
      `${file}: etcd3.hosts com ${etcd ? etcdHostCount(etcd) : 0} membro(s): são precisos três (com um ou dois, perder um membro tira o quórum: nenhum failover até ele voltar).`,
    );
  }
  const bootstrap = config?.bootstrap as { dcs?: Record<string, unknown> } | undefined;
  const dcs = bootstrap?.dcs;
  if (dcs?.failsafe_mode !== true) {
    problems.push(
      `${file}: bootstrap.dcs.failsafe_mode não é true: com o etcd fora de alcance o primário se rebaixa e as gravações param até o etcd voltar.`,
    );
  }
  const [ttl, loopWait, retry] = [dcs?.ttl, dcs?.loop_wait, dcs?.retry_timeout];
  if (typeof ttl !== "number" || typeof loopWait !== "number" || typeof retry !== "number" || loopWait + 2 * retry > ttl) {
    problems.push(
      `${file}: bootstrap.dcs precisa de ttl, loop_wait e retry_timeout numéricos com loop_wait + 2 × retry_timeout ≤ ttl (regra do Patroni).`,
    );
  }
  return problems;
}

/** Refuses (throws, Portuguese) a file configProblems finds anything in. */
export function assertConfigReady(file: string, text = fs.readFileSync(file, "utf8")): void {
  const problems = configProblems(text, file);
  if (problems.length > 0) throw new Error(`Recusado, nada foi iniciado:\n${problems.join("\n")}`);
}

function owner(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}
const isRoot = () => process.getuid?.() === 0;

/** Starts `command` detached, output to logs/<name>.log, its pid in run/<name>.pid; as `postgres` when asked and root. */
function startDetached(
  name: string,
  command: string,
  args: string[],
  options: { asPostgres?: boolean; env?: Record<string, string> } = {},
) {
  const log = fs.openSync(path.join(LOGS, `${name}.log`), "a");
  const [file, argv] =
    options.asPostgres && isRoot()
      ? ["setpriv", ["--reuid", "postgres", "--regid", "postgres", "--init-groups", "--", command, ...args]]
      : [command, args];
  const child = spawn(file, argv, {
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, HOME: ROOT, ...options.env },
  });
  fs.closeSync(log);
  child.unref();
  fs.writeFileSync(path.join(RUN, `${name}.pid`), String(child.pid));
  // How to start it again (restartDetached: what systemd's Restart= does after a crash); not for
  // the gates, whose environment holds DATABASE_URL with its password.
  if (!options.env) fs.writeFileSync(path.join(RUN, `${name}.start.json`), JSON.stringify({ command, args, options }), { mode: 0o600 });
  return child.pid!;
}

/**
 * Starts `name` again exactly as it was started (after a crash), as systemd's Restart=always would.
 * PgBouncer refuses to start while its pidfile names a live process; it removes one left by a dead
 * process itself, but here the killed one may still be a zombie until this machine's init reaps it
 * (systemd reaps at once): such a file is removed first.
 */
export function restartDetached(name: string): number {
  const ownPidfile = path.join(RUN, `${name}-own.pid`);
  if (fs.existsSync(ownPidfile) && !alive(Number(fs.readFileSync(ownPidfile, "utf8").trim()) || null)) fs.rmSync(ownPidfile);
  const { command, args, options } = readStartRecord(path.join(RUN, `${name}.start.json`));
  return startDetached(name, command, args, options);
}

/**
 * A start record (run/<name>.start.json), refused unless it is a plain file of this user's that
 * nobody else can read or write, naming one of the cluster's own programs: run/ belongs to the
 * user PostgreSQL runs as, who must not be able to make this (root) process start anything else.
 */
export function readStartRecord(
  file: string,
  programs = ["/usr/bin/etcd", "/usr/bin/patroni", findHaproxy(), findPgbouncer()],
): { command: string; args: string[]; options: { asPostgres?: boolean } } {
  const stat = fs.lstatSync(file);
  const uid = process.getuid?.();
  if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
    throw new Error(`Recusado: ${file} precisa ser um arquivo seu com modo 600; nada foi reiniciado.`);
  const record = JSON.parse(fs.readFileSync(file, "utf8")) as { command?: unknown; args?: unknown; options?: { asPostgres?: unknown } };
  if (
    typeof record.command !== "string" ||
    !programs.includes(record.command) ||
    !Array.isArray(record.args) ||
    !record.args.every((arg) => typeof arg === "string")
  )
    throw new Error(`Recusado: ${file} não descreve um programa do cluster; nada foi reiniciado.`);
  return { command: record.command, args: record.args as string[], options: { asPostgres: record.options?.asPostgres === true } };
}

export function pidOf(name: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(RUN, `${name}.pid`), "utf8"));
  } catch {
    return null;
  }
}

export function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    // A zombie (killed, not yet reaped) is not alive.
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: não ficou pronto em ${timeoutMs / 1000} s (veja ${LOGS})`);
    await delay(200);
  }
}

const httpOk = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status === 200;
    },
    () => false,
  );

/** Stops one component by its recorded pid (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopComponent(name: string, graceMs = 20_000): Promise<void> {
  const pid = pidOf(name);
  if (alive(pid)) {
    process.kill(pid!, "SIGTERM");
    const deadline = Date.now() + graceMs;
    while (alive(pid) && Date.now() < deadline) await delay(100);
    if (alive(pid)) process.kill(pid!, "SIGKILL");
  }
  fs.rmSync(path.join(RUN, `${name}.pid`), { force: true });
}

/**
 * deploy/patroni.yml for node `index` on loopback: only the lines marked "cluster:" change, each
 * placeholder (TROQUE-…) becoming its generated secret.
 */
export function patroniConfig(template: string, index: number, secrets: Secrets): string {
  const node = NODES[index]!;
  const replace: [RegExp, string][] = [
    [/^name: \S+.*$/m, `name: ${node}`],
    [/^( {2}listen: )\S+:8008.*$/m, `$1127.0.0.1:${PORTS.rest[index]}`],
    [/^( {2}connect_address: )\S+:8008.*$/m, `$1127.0.0.1:${PORTS.rest[index]}`],
    [/^( {2}allowlist: ).*$/m, "$1[127.0.0.1/32]"],
    // The members' advertised names: this node's /etc/hosts points them at its relays (etcdClientName).
    [/^( {2}hosts: ).*$/m, `$1${PORTS.etcd.map((port, member) => `${etcdClientName(member)}:${port}`).join(",")}`],
    [/^( {8}shared_buffers: ).*$/m, "$116MB"],
    [/^( {4}- host replication replicator ).*$/m, "$1127.0.0.1/32 scram-sha-256"],
    [/^( {4}- host all all ).*$/m, "$1127.0.0.1/32 scram-sha-256"],
    ...Object.entries(PLACEHOLDERS).map(([placeholder, name]): [RegExp, string] => [
      new RegExp(`^(\\s+password: )${placeholder}\\b.*$`, "m"),
      `$1"${secrets[name]}"`,
    ]),
    [/^( {2}listen: )\S+:5432.*$/m, `$1127.0.0.1:${PORTS.pg[index]}`],
    [/^( {2}connect_address: )\S+:5432.*$/m, `$1127.0.0.1:${PORTS.pg[index]}`],
    [/^( {2}data_dir: ).*$/m, `$1${path.join(ROOT, node)}`],
    [/^( {2}bin_dir: ).*$/m, `$1${findBinDir()}`],
    [/^( {2}pgpass: ).*$/m, `$1${path.join(ROOT, `${node}.pgpass`)}`],
    [/^( {4}unix_socket_directories: ).*$/m, `$1${RUN}`],
  ];
  let text = template;
  for (const [pattern, value] of replace) {
    if (!pattern.test(text)) throw new Error(`deploy/patroni.yml: linha ausente (${pattern})`);
    text = text.replace(pattern, value);
  }
  return text;
}

/** deploy/haproxy-postgres.cfg on loopback: the `bind` address, the `server` lines and the socket path change. */
export function haproxyPostgresConfig(template: string, socket = adminSocket(PG_PROXY)): string {
  const lines = template.split("\n");
  const out: string[] = [];
  let serversDone = false;
  for (const line of lines) {
    if (/^\s+bind\s/.test(line)) out.push(line.replace(/bind\s+\S+/, `bind 127.0.0.1:${PORTS.pgPrimary}`));
    else if (/^\s+stats socket\s/.test(line)) out.push(line.replace(/stats socket\s+\S+/, `stats socket ${socket}`));
    else if (/^\s+server\s/.test(line)) {
      if (!serversDone)
        NODES.forEach((node, index) => out.push(`    server ${node} 127.0.0.1:${PORTS.pg[index]} check port ${PORTS.rest[index]}`));
      serversDone = true;
    } else out.push(line);
  }
  return out.join("\n");
}

/** deploy/pgbouncer.ini on loopback: the database line, port and paths change (SCRAM, console closed, as shipped). */
export function pgbouncerClusterConfig(template: string): string {
  const replace: [RegExp, string][] = [
    [/^b1 = .*$/m, `b1 = host=127.0.0.1 port=${PORTS.pgPrimary} dbname=b1`],
    [/^listen_port = .*$/m, `listen_port = ${PORTS.bouncer}`],
    [/^auth_file = .*$/m, `auth_file = ${path.join(ROOT, "userlist.txt")}`],
    [/^logfile = .*$/m, `logfile = ${path.join(LOGS, "pgbouncer-own.log")}`],
    [/^pidfile = .*$/m, `pidfile = ${path.join(RUN, "pgbouncer-own.pid")}`],
  ];
  let text = template;
  for (const [pattern, value] of replace) {
    if (!pattern.test(text)) throw new Error(`deploy/pgbouncer.ini: linha ausente (${pattern})`);
    text = text.replace(pattern, value);
  }
  return text;
}

/** One command on an HAProxy's runtime API (the first of the HTTP pair unless told); its answer. */
export function haproxyCommand(command: string, socketPath = ADMIN_SOCKET): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = "";
    socket.on("connect", () => socket.end(`${command}\n`));
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** HAProxy's view of one server: status (UP, DOWN, MAINT…) and current sessions. */
export async function serverState(
  backend: string,
  server: string,
  socketPath = backend === "postgres_primary" ? adminSocket(PG_PROXY) : ADMIN_SOCKET,
): Promise<{ status: string; sessions: number }> {
  const csv = await haproxyCommand("show stat", socketPath);
  const header = csv.split("\n")[0]!.replace(/^# /, "").split(",");
  for (const line of csv.split("\n").slice(1)) {
    const fields = line.split(",");
    if (fields[0] === backend && fields[1] === server) {
      return { status: fields[header.indexOf("status")]!, sessions: Number(fields[header.indexOf("scur")]) };
    }
  }
  throw new Error(`HAProxy não conhece ${backend}/${server}`);
}

/** Patroni's view: each member's name, role and state (GET /cluster on any node that answers). */
export async function patroniMembers(): Promise<{ name: string; role: string; state: string; lag?: number }[]> {
  for (const port of PORTS.rest) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/cluster`, { signal: AbortSignal.timeout(1_000) });
      return ((await response.json()) as { members: { name: string; role: string; state: string; lag?: number }[] }).members;
    } catch {
      // try the other node
    }
  }
  return [];
}

function instanceCount(): number {
  try {
    return Number(fs.readFileSync(path.join(RUN, "instances"), "utf8"));
  } catch {
    return 0;
  }
}

/** Copies dist/ to data/cluster/releases/<stamp> (the running gates do not see a later build) and returns it. */
function release(): string {
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ ausente: rode npm run build antes");
  const dir = path.join(ROOT, "releases", new Date().toISOString().replace(/[:.]/g, "-"));
  fs.cpSync("dist", dir, { recursive: true });
  return dir;
}

async function startGate(index: number, dist: string, extraEnv: Record<string, string> = {}): Promise<void> {
  const name = `gate${index + 1}`;
  startDetached(name, process.execPath, ["--disable-proto=throw", path.join(dist, "gate", "main.mjs")], {
    env: {
      PORT: String(PORTS.gate(index)),
      HOST: "127.0.0.1",
      PUBLIC_URL: HTTP_URL,
      DATABASE_URL: databaseUrl(),
      DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? "10",
      B1_DIST_DIR: dist,
      TRUST_PROXY: "true",
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      RATE_LIMIT_MULTIPLIER: "1000000",
      REQUEST_TIMEOUT_MS: "10000",
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
  });
  await waitFor(name, () => httpOk(`http://127.0.0.1:${PORTS.gate(index)}/readyz`));
}

/** Starts instance `index` (0-based) from the running release (the 12-instance scenario adds some outside HAProxy). */
export async function startGateProcess(index: number): Promise<void> {
  await startGate(index, fs.readFileSync(path.join(RUN, "release"), "utf8"));
}

/** Starts node `index`'s Patroni again (after a crash): it rejoins, as a standby when another node took over. */
export async function restartPatroni(index: number): Promise<void> {
  const node = NODES[index]!;
  startDetached(`patroni-${node}`, ...patroniCommand(index));
  await waitFor(
    `${node} de volta`,
    async () =>
      (await patroniMembers()).some((member) => member.name === node && (member.state === "running" || member.state === "streaming")),
    120_000,
  );
}

/** Each HAProxy's configuration file: the HTTP pair's (deploy/haproxy.cfg twice) and PostgreSQL's. */
function haproxyFiles(instances: number): Record<string, string> {
  const files: Record<string, string> = {};
  HTTP_PROXIES.forEach((name, index) => {
    const file = path.join(ROOT, `${name}.cfg`);
    fs.writeFileSync(
      file,
      haproxyConfig(
        fs.readFileSync(HAPROXY_CONFIG, "utf8"),
        `127.0.0.1:${PORTS.httpPair[index]}`,
        Array.from({ length: instances }, (_, gate) => ({ name: `gate${gate + 1}`, address: `127.0.0.1:${PORTS.gate(gate)}` })),
        path.resolve("deploy/errors/503.http"),
        adminSocket(name),
      ),
    );
    files[name] = file;
  });
  const postgres = path.join(ROOT, `${PG_PROXY}.cfg`);
  fs.writeFileSync(postgres, haproxyPostgresConfig(fs.readFileSync("deploy/haproxy-postgres.cfg", "utf8")));
  files[PG_PROXY] = postgres;
  return files;
}

/** Where the etcd members' peer certificates live (folder 0700 of the user etcd runs as, keys 0600). */
export const ETCD_TLS = path.join(ROOT, "etcd-tls");

/**
 * The members' peer TLS, made once with openssl: a CA of this cluster and one certificate for
 * 127.0.0.1 (server and client use); with --peer-client-cert-auth a member accepts Raft traffic only
 * from a holder of a certificate this CA signed, so the peer ports are closed to anyone else.
 */
function etcdPeerTls(): void {
  // The folder belongs to the user etcd runs as (postgres, when started as root); privateDir then
  // refuses it if it is a link, someone else's, or open to others.
  fs.mkdirSync(ETCD_TLS, { recursive: true, mode: 0o700 });
  if (isRoot()) fs.lchownSync(ETCD_TLS, owner().uid, owner().gid);
  privateDir(ETCD_TLS, isRoot() ? { uid: owner().uid } : {});
  const file = (name: string) => path.join(ETCD_TLS, name);
  if (!fs.existsSync(file("peer.pem"))) {
    const openssl = (args: string[]) => {
      const result = spawnSync("openssl", args, { encoding: "utf8" });
      if (result.status !== 0) throw new Error(`openssl ${args[0]}: ${result.stderr.trim().split("\n").pop()}`);
    };
    const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    openssl(["req", "-x509", ...key, "-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "365", "-subj", "/CN=b1-cluster etcd CA"]);
    openssl(["req", ...key, "-keyout", file("peer.key"), "-out", file("peer.csr"), "-subj", "/CN=b1-cluster etcd peer"]);
    fs.writeFileSync(file("peer.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n");
    openssl(
      ["x509", "-req", "-in", file("peer.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial"].concat([
        "-out",
        file("peer.pem"),
        "-days",
        "365",
        "-extfile",
        file("peer.ext"),
      ]),
    );
    // The CA's key is needed no more: nobody can sign another peer.
    for (const name of ["ca.key", "peer.csr", "peer.ext", "ca.srl"]) fs.rmSync(file(name), { force: true });
  }
  for (const name of fs.readdirSync(ETCD_TLS)) {
    fs.chmodSync(file(name), 0o600);
    if (isRoot()) fs.lchownSync(file(name), owner().uid, owner().gid);
  }
}

/** The relay process between node `index`'s Patroni and etcd (scripts/etcd-partition-proxy.ts). */
export const etcdRelayName = (index: number) => `etcd-relay-${NODES[index]}`;

/**
 * Node `index`'s relays to the three etcd members (scripts/etcd-partition-proxy.ts: SIGUSR1 cuts
 * this node off etcd as a network partition would, SIGUSR2 heals), on 127.0.0.1 only. Loopback
 * has no iptables here; production has no relay (deploy/patroni.yml talks to etcd directly).
 */
async function startEtcdRelay(index: number): Promise<void> {
  const routes = PORTS.etcd.map((port) => `${etcdRelayAddress(index)}:${port}=${port}`);
  // As the user Patroni runs as; env: no start record (restartDetached is for the cluster's own programs only).
  startDetached(etcdRelayName(index), process.execPath, [path.resolve("scripts/etcd-partition-proxy.ts"), ...routes], {
    asPostgres: true,
    env: {},
  });
  for (const port of PORTS.etcd) await waitFor(`relay ${port}`, () => tcpAccepts(port, etcdRelayAddress(index)));
}

/** Where node `index`'s /etc/hosts is kept (a folder 0700 of this user's: the mount below runs as root). */
const ETCD_HOSTS = path.join(ROOT, "etcd-hosts");

/**
 * How node `index`'s Patroni is started: in a private mount namespace (unshare -m, nothing seen
 * outside it) whose /etc/hosts names the etcd members at this node's relays, then as `postgres`
 * (setpriv) when root; without root, in a user namespace of its own. unshare and sh exec: the pid is Patroni's.
 */
function patroniCommand(index: number): [string, string[], { env: Record<string, string> }] {
  privateDir(ETCD_HOSTS);
  const hosts = path.join(ETCD_HOSTS, NODES[index]!);
  fs.rmSync(hosts, { force: true });
  fs.writeFileSync(
    hosts,
    `127.0.0.1 localhost\n::1 localhost\n${etcdRelayAddress(index)} ${ETCD_MEMBERS.map((_, member) => etcdClientName(member)).join(" ")}\n`,
    { mode: 0o644, flag: "wx" },
  );
  const config = path.join(ROOT, `patroni-${NODES[index]}.yml`);
  const asPostgres = isRoot() ? "setpriv --reuid postgres --regid postgres --init-groups -- " : "";
  return [
    "/usr/bin/unshare",
    [
      ...(isRoot() ? [] : ["--user", "--map-current-user"]),
      "--mount",
      "--propagation",
      "private",
      "--",
      "/bin/sh",
      "-c",
      `mount --bind "$0" /etc/hosts && exec ${asPostgres}/usr/bin/patroni "$1"`,
      hosts,
      config,
    ],
    // env: no start record (restartDetached starts only the cluster's own programs; restartPatroni does this).
    { env: {} },
  ];
}

/** etcd member `index` (e1, e2, e3): its client and peer ports on loopback, the three listed in --initial-cluster. */
function startEtcd(index: number): void {
  const name = ETCD_MEMBERS[index]!;
  const peer = (member: number) => `https://127.0.0.1:${PORTS.etcdPeer[member]}`;
  startDetached(
    `etcd-${name}`,
    "/usr/bin/etcd",
    [
      `--name=${name}`,
      `--data-dir=${path.join(ROOT, `etcd-${name}`)}`,
      `--listen-client-urls=http://127.0.0.1:${PORTS.etcd[index]}`,
      // A name, not the address: each Patroni resolves it to its own relays (etcdClientName).
      `--advertise-client-urls=http://${etcdClientName(index)}:${PORTS.etcd[index]}`,
      `--listen-peer-urls=${peer(index)}`,
      `--initial-advertise-peer-urls=${peer(index)}`,
      `--initial-cluster=${ETCD_MEMBERS.map((member, at) => `${member}=${peer(at)}`).join(",")}`,
      "--initial-cluster-state=new",
      "--initial-cluster-token=b1-cluster",
      `--peer-cert-file=${path.join(ETCD_TLS, "peer.pem")}`,
      `--peer-key-file=${path.join(ETCD_TLS, "peer.key")}`,
      `--peer-trusted-ca-file=${path.join(ETCD_TLS, "ca.pem")}`,
      "--peer-client-cert-auth",
    ],
    { asPostgres: true },
  );
}

export async function up(instances = 3): Promise<void> {
  for (const [what, found] of [
    ["etcd", fs.existsSync("/usr/bin/etcd")],
    ["patroni", fs.existsSync("/usr/bin/patroni")],
    ["unshare", fs.existsSync("/usr/bin/unshare")],
    ["PostgreSQL", Boolean(findBinDir())],
    ["HAProxy", Boolean(findHaproxy())],
    ["PgBouncer", Boolean(findPgbouncer())],
  ] as const) {
    if (!found) throw new Error(`${what} não encontrado (apt-get install -y etcd-server patroni postgresql haproxy pgbouncer)`);
  }
  if ([...ETCD_MEMBERS.map((member) => `etcd-${member}`), "etcd"].some((name) => alive(pidOf(name))))
    throw new Error("o cluster já está no ar (npm run cluster -- status / down)");
  if (!fs.existsSync(path.join(SECRETS_DIR, "superuser")) && fs.existsSync(path.join(ROOT, NODES[0]))) {
    throw new Error(
      "data/cluster/ tem um cluster anterior sem segredos gerados (trust no loopback): rode npm run cluster -- down --purge e suba de novo.",
    );
  }
  const dist = release();
  fs.mkdirSync(RUN, { recursive: true });
  fs.mkdirSync(LOGS, { recursive: true });
  if (isRoot()) {
    const { uid, gid } = owner();
    for (const dir of [ROOT, RUN, LOGS]) fs.chownSync(dir, uid, gid);
  }
  fs.chmodSync(ROOT, 0o755);
  const secrets = clusterSecrets();
  /** Writes a file with secrets: 0600, owned by the user its component runs as. */
  const writeSecretFile = (file: string, text: string) => {
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, text, { mode: 0o600, flag: "wx" });
    if (isRoot()) fs.chownSync(file, owner().uid, owner().gid);
  };
  // Every file with secrets generated and checked before anything starts: a placeholder left refuses the whole start.
  const template = fs.readFileSync("deploy/patroni.yml", "utf8");
  const patroniFiles = NODES.map((node, index) => {
    const file = path.join(ROOT, `patroni-${node}.yml`);
    const text = patroniConfig(template, index, secrets);
    assertConfigReady(file, text);
    return { file, text };
  });
  const bouncerConfig = pgbouncerClusterConfig(fs.readFileSync("deploy/pgbouncer.ini", "utf8"));
  assertConfigReady(path.join(ROOT, "pgbouncer.ini"), bouncerConfig);

  console.log("etcd (3 membros)…");
  etcdPeerTls();
  for (const index of ETCD_MEMBERS.keys()) startEtcd(index);
  for (const port of PORTS.etcd) await waitFor(`etcd ${port}`, () => httpOk(`http://127.0.0.1:${port}/health`));
  await etcdEnableAuth(secrets);

  for (const index of NODES.keys()) await startEtcdRelay(index);
  for (const [index, node] of NODES.entries()) {
    console.log(`Patroni ${node}…`);
    const { file, text } = patroniFiles[index]!;
    writeSecretFile(file, text);
    startDetached(`patroni-${node}`, ...patroniCommand(index));
    // The first node bootstraps and becomes primary; the second clones it.
    if (index === 0) await waitFor("primário pg1", () => httpOk(`http://127.0.0.1:${PORTS.rest[0]}/primary`), 90_000);
  }
  await waitFor("réplica síncrona pg2", async () => (await patroniMembers()).some((member) => member.role === "sync_standby"), 90_000);

  // The portal's database, on the primary.
  const admin = new pg.Client({
    host: "127.0.0.1",
    port: PORTS.pg[0],
    user: "postgres",
    password: secrets.superuser,
    database: "postgres",
  });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = 'b1'");
  if (exists.rowCount === 0) await admin.query("create database b1");
  await admin.end();

  console.log("HAProxy (par HTTP e PostgreSQL) e PgBouncer…");
  const proxies = haproxyFiles(instances);
  startDetached(PG_PROXY, findHaproxy()!, ["-db", "-f", proxies[PG_PROXY]!]);
  await waitFor("HAProxy → primário", () => tcpAccepts(PORTS.pgPrimary));
  // HAProxy starts every server UP until its checks say otherwise: until it has marked the standby
  // down, a connection could reach it (seen: the first gate's migration refused as read-only).
  await waitFor("HAProxy só com o primário", async () => {
    const leader = (await patroniMembers()).find((member) => member.role === "leader")?.name;
    const states = await Promise.all(NODES.map(async (node) => [node, (await serverState("postgres_primary", node)).status] as const));
    return leader !== undefined && states.every(([node, state]) => (node === leader ? state === "UP" : state.startsWith("DOWN")));
  });
  // The portal's user with its password: PgBouncer checks clients with SCRAM and logs in to PostgreSQL with it.
  writeSecretFile(path.join(ROOT, "userlist.txt"), `"postgres" "${secrets.superuser}"\n`);
  fs.writeFileSync(path.join(ROOT, "pgbouncer.ini"), bouncerConfig);
  if (isRoot()) fs.chownSync(path.join(ROOT, "pgbouncer.ini"), owner().uid, owner().gid);
  startDetached("pgbouncer", findPgbouncer()!, [path.join(ROOT, "pgbouncer.ini")], { asPostgres: true });
  await waitFor("PgBouncer", () => tcpAccepts(PORTS.bouncer));

  for (const name of HTTP_PROXIES) startDetached(name, findHaproxy()!, ["-db", "-f", proxies[name]!]);
  fs.writeFileSync(path.join(RUN, "instances"), String(instances));
  fs.writeFileSync(path.join(RUN, "release"), dist);
  for (let index = 0; index < instances; index++) {
    console.log(`gate${index + 1}…`);
    await startGate(index, dist);
  }
  for (const url of HTTP_URLS) await waitFor(`HTTP pelo HAProxy ${url}`, () => httpOk(`${url}/readyz`));
  console.log(`no ar: ${HTTP_URL} (PostgreSQL pelo PgBouncer: ${DATABASE_URL_SHOWN}; senhas em ${SECRETS_DIR})`);
}

/** etcd's JSON gateway (/v3/…) on the cluster's member: the answer's JSON, or throws with etcd's error. */
export async function etcdCall(
  route: string,
  body: unknown,
  token?: string,
  port = PORTS.etcd[0],
  host = "127.0.0.1",
): Promise<Record<string, unknown>> {
  const response = await fetch(`http://${host}:${port}/v3/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok || typeof answer.error === "string")
    throw new Error(`etcd ${route}: ${String(answer.error ?? answer.message ?? response.status)}`);
  return answer;
}

/** An etcd token for `name` (POST /v3/auth/authenticate), from member `port`. */
export async function etcdToken(name: string, password: string, port = PORTS.etcd[0]): Promise<string> {
  return String((await etcdCall("auth/authenticate", { name, password }, undefined, port)).token);
}

const b64 = (text: string) => Buffer.from(text).toString("base64");

/**
 * etcd's users and roles, then authentication on: `root` (etcd requires it; its password only in
 * data/cluster/secrets/etcd-root) and `patroni`, whose role may read and write Patroni's keys
 * (/service/…) and nothing else. Through the JSON gateway, so no password appears on a command
 * line. On a member whose authentication is already on (a cluster brought up again) nothing changes.
 */
async function etcdEnableAuth(secrets: Secrets): Promise<void> {
  try {
    await etcdCall("auth/user/add", { name: "root", password: secrets["etcd-root"] });
  } catch (error) {
    // Already on: the users exist; check the patroni user's password still opens it.
    if (/user name is empty|permission denied|user name already exists/.test((error as Error).message)) {
      await etcdToken("patroni", secrets["etcd-patroni"]);
      return;
    }
    throw error;
  }
  await etcdCall("auth/user/grant", { user: "root", role: "root" });
  await etcdCall("auth/role/add", { name: "patroni" });
  await etcdCall("auth/role/grant", {
    name: "patroni",
    perm: { permType: "READWRITE", key: b64("/service/"), range_end: b64("/service0") },
  });
  await etcdCall("auth/user/add", { name: "patroni", password: secrets["etcd-patroni"] });
  await etcdCall("auth/user/grant", { user: "patroni", role: "patroni" });
  await etcdCall("auth/enable", {});
}

function tcpAccepts(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function down(purge: boolean): Promise<void> {
  const gates = Array.from({ length: Math.max(instanceCount(), 12) }, (_, index) => `gate${index + 1}`);
  for (const name of [...gates, ...HTTP_PROXIES, "pgbouncer", PG_PROXY]) await stopComponent(name);
  // The standby first, so the primary does not wait for a synchronous standby that is going away.
  // A relay left partitioned by an interrupted scenario: healed first, so Patroni leaves etcd cleanly.
  for (const index of NODES.keys()) {
    const pid = pidOf(etcdRelayName(index));
    if (alive(pid)) process.kill(pid!, "SIGUSR2");
  }
  for (const name of ["patroni-pg2", "patroni-pg1"]) await stopComponent(name, 60_000);
  for (const index of NODES.keys()) await stopComponent(etcdRelayName(index));
  // A member frozen by a scenario that was interrupted would never end on SIGTERM: let it go on first.
  for (const member of ETCD_MEMBERS) {
    const pid = pidOf(`etcd-${member}`);
    if (alive(pid)) process.kill(pid!, "SIGCONT");
  }
  // "etcd": the single member of a cluster brought up before issue 63.
  for (const name of [...ETCD_MEMBERS.map((member) => `etcd-${member}`), "etcd"]) await stopComponent(name, 20_000);
  if (purge) fs.rmSync(ROOT, { recursive: true, force: true });
  console.log(purge ? "cluster parado e data/cluster/ apagado" : "cluster parado (dados em data/cluster/; --purge apaga)");
}

export async function status(): Promise<boolean> {
  let allUp = true;
  const line = (name: string, ok: boolean, detail = "") => {
    if (!ok) allUp = false;
    console.log(`${ok ? "no ar " : "FORA  "} ${name.padEnd(14)} ${detail}`);
  };
  for (const [index, member] of ETCD_MEMBERS.entries())
    line(`etcd ${member}`, alive(pidOf(`etcd-${member}`)), `127.0.0.1:${PORTS.etcd[index]}`);
  const members = await patroniMembers();
  for (const [index, node] of NODES.entries()) {
    const member = members.find((candidate) => candidate.name === node);
    line(`patroni ${node}`, alive(pidOf(`patroni-${node}`)), member ? `${member.role} ${member.state} (127.0.0.1:${PORTS.pg[index]})` : "");
    line(`etcd ← ${node}`, alive(pidOf(etcdRelayName(index))), `relays em ${etcdRelayAddress(index)}`);
  }
  for (const [index, name] of HTTP_PROXIES.entries()) line(name, alive(pidOf(name)), `HTTP ${HTTP_URLS[index]}`);
  line(PG_PROXY, alive(pidOf(PG_PROXY)), `primário 127.0.0.1:${PORTS.pgPrimary}`);
  line("pgbouncer", alive(pidOf("pgbouncer")), DATABASE_URL_SHOWN);
  for (let index = 0; index < instanceCount(); index++) {
    const name = `gate${index + 1}`;
    const state = alive(pidOf(HTTP_PROXIES[0])) ? await serverState("gates", name).catch(() => null) : null;
    line(
      name,
      alive(pidOf(name)),
      `127.0.0.1:${PORTS.gate(index)}${state ? ` (HAProxy: ${state.status}, ${state.sessions} em andamento)` : ""}`,
    );
  }
  return allUp;
}

/**
 * Replaces every instance, one at a time, with the current build: HAProxy stops sending it new
 * requests (`disable server`), its requests in flight finish, it stops (SIGTERM), the new build starts
 * on the same port, answers /readyz, and HAProxy sends to it again (`enable server`, then UP).
 */
export async function roll(log: (text: string) => void = console.log): Promise<void> {
  const dist = release();
  for (let index = 0; index < instanceCount(); index++) {
    const name = `gate${index + 1}`;
    const began = performance.now();
    // On both HAProxy of the pair: each sends to every instance.
    const sockets = HTTP_PROXIES.map(adminSocket);
    for (const socket of sockets) await haproxyCommand(`disable server gates/${name}`, socket);
    await waitFor(
      `${name} sem requisições`,
      async () => (await Promise.all(sockets.map((socket) => serverState("gates", name, socket)))).every((state) => state.sessions === 0),
      60_000,
    );
    await stopComponent(name, 60_000);
    await startGate(index, dist);
    for (const socket of sockets) await haproxyCommand(`enable server gates/${name}`, socket);
    await waitFor(
      `${name} UP no HAProxy`,
      async () => (await Promise.all(sockets.map((socket) => serverState("gates", name, socket)))).every((state) => state.status === "UP"),
      30_000,
    );
    log(`${name} trocado em ${((performance.now() - began) / 1000).toFixed(1)} s`);
  }
  fs.writeFileSync(path.join(RUN, "release"), dist);
}

export type ClusterCommand =
  | { command: "up"; instances: number }
  | { command: "down"; purge: boolean }
  | { command: "status" }
  | { command: "roll"; loadSeconds: number }
  | { command: "check"; files: string[] };

const USAGE =
  "uso: npm run cluster -- up [--instances N] | down [--purge] | status | roll [--load <segundos>] | check <arquivo de configuração>…";

/**
 * `check <file>…`: each file's problems (configProblems), one line each; true when none. For the
 * production copies of deploy/ (a systemd ExecStartPre, docs/implantacao.md): a placeholder left,
 * two equal passwords or an unauthenticated control plane refuses the start.
 */
export function checkConfigFiles(files: string[], log: (line: string) => void = console.error): boolean {
  let ok = true;
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      log(`${file}: não foi possível ler (${(error as NodeJS.ErrnoException).code ?? "erro"})`);
      ok = false;
      continue;
    }
    const problems = configProblems(text, file);
    for (const problem of problems) log(problem);
    if (problems.length > 0) ok = false;
  }
  return ok;
}

/** The command line, or a Portuguese error: nothing is started for an argument that is not understood. */
export function parseClusterArgs(argv: string[]): ClusterCommand | { error: string } {
  const [command, ...rest] = argv;
  const allowed: Record<string, string[]> = { up: ["--instances"], down: ["--purge"], status: [], roll: ["--load"], check: [] };
  if (command === undefined || !Object.hasOwn(allowed, command)) return { error: USAGE };
  if (command === "check") {
    if (rest.length === 0 || rest.length > 50) return { error: "check: de 1 a 50 arquivos" };
    const bad = rest.find(
      (file) => file === "" || file.startsWith("-") || file.length > 4096 || /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(file),
    );
    if (bad !== undefined) return { error: `check: arquivo inválido: ${JSON.stringify(bad.slice(0, 40))}` };
    return { command, files: rest };
  }
  const values = new Map<string, string>();
  for (let index = 0; index < rest.length; index++) {
    const flag = rest[index]!;
    if (!allowed[command]!.includes(flag)) return { error: `opção desconhecida para ${command}: ${JSON.stringify(flag.slice(0, 40))}` };
    if (flag === "--purge") values.set(flag, "");
    else {
      const value = rest[++index];
      if (value === undefined || !/^\d{1,3}$/.test(value)) return { error: `${flag} precisa de um número inteiro` };
      values.set(flag, value);
    }
  }
  if (command === "up") {
    const instances = Number(values.get("--instances") ?? 3);
    if (instances < 1 || instances > 12) return { error: "--instances: de 1 a 12" };
    return { command, instances };
  }
  if (command === "down") return { command, purge: values.has("--purge") };
  if (command === "roll") {
    const loadSeconds = Number(values.get("--load") ?? 0);
    if (loadSeconds > 600) return { error: "--load: no máximo 600 segundos" };
    return { command, loadSeconds };
  }
  return { command: "status" };
}
