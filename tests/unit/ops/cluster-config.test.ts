/**
 * The reference cluster (`npm run cluster`) runs the production examples of deploy/ with only
 * addresses, ports, paths and loopback trust changed: what it tests is what the guide ships.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkConfigFiles,
  clusterBasePort,
  clusterSecrets,
  configProblems,
  haproxyPostgresConfig,
  parseClusterArgs,
  patroniConfig,
  readStartRecord,
  pgbouncerClusterConfig,
  PLACEHOLDERS,
  PORTS,
  SECRET_NAMES,
  type Secrets,
} from "../../../scripts/cluster";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "b1-cluster-config-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
/** Distinct stand-ins for the generated secrets. */
const SECRETS = Object.fromEntries(SECRET_NAMES.map((name, index) => [name, `segredo${index}${"x".repeat(40)}`])) as Secrets;

const read = (file: string) => fs.readFileSync(file, "utf8");

/** The template's lines the generated text changed (same line count on both sides). */
function changedLines(template: string, generated: string): string[] {
  const before = template.split("\n");
  const after = generated.split("\n");
  expect(after).toHaveLength(before.length);
  return before.filter((line, index) => line !== after[index]);
}

describe("the reference cluster's configuration", () => {
  it("Patroni: only the lines marked `# cluster:` change; synchronous mode and the failover timings are the guide's", () => {
    const template = read("deploy/patroni.yml");
    for (const index of [0, 1]) {
      const generated = patroniConfig(template, index, SECRETS);
      for (const line of changedLines(template, generated)) expect(line).toMatch(/# cluster:/);
      expect(generated).toContain(`name: pg${index + 1}`);
      expect(generated).toContain(`listen: 127.0.0.1:${PORTS.pg[index]}`);
      expect(generated).not.toMatch(/10\.0\.0\./);
    }
    expect(template).toMatch(/^ {4}synchronous_mode: true$/m);
    const ttl = Number(/^ {4}ttl: (\d+)$/m.exec(template)?.[1]);
    const loopWait = Number(/^ {4}loop_wait: (\d+)$/m.exec(template)?.[1]);
    const retry = Number(/^ {4}retry_timeout: (\d+)$/m.exec(template)?.[1]);
    // Patroni's own rule, and the write-gap target of ≤ 10 s (issue 63): the leader key expires
    // (ttl after its last renewal), the standby promotes at once, HAProxy sees it within 0.5 s.
    expect(loopWait + 2 * retry).toBeLessThanOrEqual(ttl);
    expect(ttl + loopWait).toBeLessThanOrEqual(7);
    // Failed before (issue 63): no failsafe_mode, one etcd member in the cluster.
    expect(template).toMatch(/^ {4}failsafe_mode: true$/m);
    for (const index of [0, 1]) {
      const config = parse(patroniConfig(template, index, SECRETS)) as { etcd3: { hosts: string } };
      // The three members by the names they advertise (each node's /etc/hosts leads to its own relays).
      expect(config.etcd3.hosts.split(",")).toEqual(PORTS.etcd.map((port, member) => `etcd-e${member + 1}.b1-cluster:${port}`));
      expect(config.etcd3).not.toHaveProperty("use_proxies");
    }
  });

  it("HAProxy for PostgreSQL: the primary through Patroni's /primary; only bind, server and socket lines change", () => {
    const template = read("deploy/haproxy-postgres.cfg");
    const generated = haproxyPostgresConfig(template);
    for (const line of changedLines(template, generated)) expect(line).toMatch(/^\s+(bind|server|stats socket)\s/);
    expect(template).toMatch(/^\s+option httpchk GET \/primary$/m);
    expect(template).toMatch(/on-marked-down shutdown-sessions/);
    // A process of its own (issue 63): its own runtime socket, and a new primary found within 0.5 s.
    expect(template).toMatch(/^\s+stats socket \S+ mode 600 level admin$/m);
    expect(template).toMatch(/^\s+timeout connect \d+s$/m);
    expect(template).toMatch(/default-server inter 1s downinter 500ms fall 2 rise 1 /);
    expect(generated).toContain(`server pg2 127.0.0.1:${PORTS.pg[1]} check port ${PORTS.rest[1]}`);
  });

  it("PgBouncer: transaction pooling as shipped; only addresses, paths and loopback trust change", () => {
    const template = read("deploy/pgbouncer.ini");
    const generated = pgbouncerClusterConfig(template);
    for (const line of changedLines(template, generated)) expect(line).toMatch(/^(b1 =|listen_port|auth_file|logfile|pidfile) /);
    expect(template).toMatch(/^pool_mode = transaction$/m);
    expect(template).toMatch(/^ignore_startup_parameters = extra_float_digits,statement_timeout$/m);
    expect(generated).toContain(`b1 = host=127.0.0.1 port=${PORTS.pgPrimary} dbname=b1`);
  });
});

describe("the control plane's authentication (issue 62 item 1)", () => {
  const template = read("deploy/patroni.yml");

  it("Patroni as shipped: Basic auth and an allow-list on the REST API, a user for etcd, SCRAM in pg_hba", () => {
    // Failed before: deploy/patroni.yml had no restapi.authentication, no allowlist and etcd without a user.
    const config = parse(template) as Record<string, Record<string, unknown>>;
    const restapi = config.restapi as {
      authentication?: { username?: string; password?: string };
      allowlist?: string[];
      allowlist_include_members?: boolean;
    };
    expect(restapi.authentication?.username).toBe("patroni");
    expect(restapi.allowlist?.length).toBeGreaterThan(0);
    expect(restapi.allowlist_include_members).toBe(true);
    expect((config.etcd3 as { username?: string }).username).toBe("patroni");
    expect((config.bootstrap as { pg_hba: string[] }).pg_hba.every((line) => /scram-sha-256$/.test(line))).toBe(true);
    // Seen on the reference cluster: initdb's default pg_hba trusted 127.0.0.1 before these lines, so a wrong password got in.
    expect((config.bootstrap as { initdb: Record<string, string>[] }).initdb).toEqual(
      expect.arrayContaining([{ "auth-host": "scram-sha-256" }, { "auth-local": "peer" }]),
    );
  });

  it("a production file with its placeholders left is refused, one Portuguese line per placeholder", () => {
    const problems = configProblems(template, "/etc/patroni/config.yml");
    expect(problems).toHaveLength(Object.keys(PLACEHOLDERS).length);
    for (const problem of problems)
      expect(problem).toMatch(/^\/etc\/patroni\/config\.yml:\d+: ainda tem um valor de exemplo .*troque por um segredo aleatório/);
    // The old single placeholder, three times: refused as a placeholder and as the same password repeated.
    const old = template.replace(/TROQUE-[\w-]+/g, "troque-esta-senha");
    expect(configProblems(old, "p.yml").filter((line) => /a mesma senha da linha/.test(line)).length).toBeGreaterThan(0);
  });

  it("the cluster's files keep no placeholder, no shared password, and pass the same check", () => {
    for (const index of [0, 1]) {
      const generated = patroniConfig(template, index, SECRETS);
      expect(configProblems(generated, "patroni.yml")).toEqual([]);
      const values = generated.split("\n").filter((line) => !/^\s*#/.test(line));
      expect(values.join("\n")).not.toMatch(/troque/i);
      const config = parse(generated) as {
        restapi: { authentication: { password: string }; allowlist: string[] };
        etcd3: { password: string };
      };
      expect(config.restapi.authentication.password).toBe(SECRETS.restapi);
      expect(config.restapi.allowlist).toEqual(["127.0.0.1/32"]);
      expect(config.etcd3.password).toBe(SECRETS["etcd-patroni"]);
      expect(values.join("\n")).not.toMatch(/\btrust\b/);
    }
    expect(configProblems(pgbouncerClusterConfig(read("deploy/pgbouncer.ini")), "pgbouncer.ini")).toEqual([]);
  });

  it("refuses a Patroni file whose REST API or etcd has no authentication", () => {
    const generated = patroniConfig(template, 0, SECRETS);
    const noAuth = generated.replace(/^ {2}authentication:\n {4}username: .*\n {4}password: .*\n/m, "");
    expect(configProblems(noAuth, "p.yml")).toContainEqual(expect.stringMatching(/restapi\.authentication .* ausente/));
    const noAllow = generated.replace(/^ {2}allowlist: .*\n/m, "");
    expect(configProblems(noAllow, "p.yml")).toContainEqual(expect.stringMatching(/restapi\.allowlist ausente/));
    const noEtcdUser = generated.replace(/^ {2}username: patroni\n {2}password: .*\n/m, "");
    expect(configProblems(noEtcdUser, "p.yml")).toContainEqual(expect.stringMatching(/etcd3\.username\/password ausentes/));
  });

  it("hostile files: prototype keys, 64 KiB ± 1 and 10 MB lines, deep nesting, aliases — a clear answer, never a crash", () => {
    const generated = patroniConfig(template, 0, SECRETS);
    const proto = generated.replace(/^restapi:\n/m, "restapi:\n  __proto__:\n    polluted: true\n");
    expect(() => configProblems(proto, "p.yml")).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const hidden = `restapi:\n  listen: 1\n  __proto__:\n    authentication:\n      username: a\n      password: ${"b".repeat(20)}\n    allowlist: [1.2.3.4/32]\n`;
    expect(configProblems(hidden, "p.yml")).toContainEqual(expect.stringMatching(/restapi\.authentication .* ausente/));
    for (const size of [65_535, 65_536, 65_537, 10 * 1024 * 1024]) {
      const problems = configProblems(`${generated}\n# ${"x".repeat(size)}\n`, "p.yml");
      expect(problems).toEqual([]);
      expect(configProblems(`password: TROQUE-${"y".repeat(size)}`, "p.ini")[0]!.length).toBeLessThan(300);
    }
    const deep = `restapi:\n${Array.from({ length: 500 }, (_, depth) => `${"  ".repeat(depth + 1)}k${depth}:`).join("\n")}\n`;
    expect(configProblems(deep, "p.yml")).toContainEqual(expect.stringMatching(/ausente/));
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nrestapi: {}\n`;
    expect(configProblems(bomb, "p.yml")).toContainEqual(expect.stringMatching(/^p\.yml: YAML inválido/));
    expect(configProblems("restapi: [\n", "p.yml")).toContainEqual(expect.stringMatching(/^p\.yml: YAML inválido/));
  });

  it("PgBouncer's admin console is closed and HAProxy has no stats page, its runtime API on a 600 socket", () => {
    const bouncer = read("deploy/pgbouncer.ini");
    expect(bouncer).toMatch(/^admin_users =\s*$/m);
    expect(bouncer).toMatch(/^stats_users =\s*$/m);
    expect(bouncer).toMatch(/^unix_socket_dir =\s*$/m);
    expect(bouncer).toMatch(/^listen_addr = 127\.0\.0\.1$/m);
    expect(bouncer).toMatch(/^auth_type = scram-sha-256$/m);
    for (const file of ["deploy/haproxy.cfg", "deploy/haproxy-postgres.cfg"]) {
      expect(read(file)).not.toMatch(/^\s*stats (enable|uri|auth|admin)\b/m);
      expect(read(file)).not.toMatch(/^\s*listen\s+stats/m);
    }
    expect(read("deploy/haproxy.cfg")).toMatch(/^\s+stats socket \S+ mode 600 level admin$/m);
  });

  it("refuses a Patroni file with fewer than three etcd members, without failsafe_mode, or with timings Patroni rejects (issue 63)", () => {
    const generated = patroniConfig(template, 0, SECRETS);
    expect(configProblems(generated, "p.yml")).toEqual([]);
    // The deploy/patroni.yml of main before issue 63: one member in the cluster, no failsafe_mode, ttl 10 / loop_wait 2 / retry_timeout 4.
    const oneMember = generated.replace(/^( {2}hosts: ).*$/m, `$1127.0.0.1:${PORTS.etcd[0]}`);
    expect(configProblems(oneMember, "p.yml")).toEqual([
      "p.yml: etcd3.hosts com 1 membro(s): são precisos três (com um ou dois, perder um membro tira o quórum: nenhum failover até ele voltar).",
    ]);
    for (const [hosts, count] of [
      ["a:2379,b:2379", 2],
      ["a:2379, a:2379 ,a:2379", 1],
      ["[a:2379, b:2379]", 2],
      ["''", 0],
    ] as const) {
      const problems = configProblems(generated.replace(/^( {2}hosts: ).*$/m, `$1${hosts}`), "p.yml");
      expect(problems, hosts).toContainEqual(expect.stringMatching(new RegExp(`etcd3\\.hosts com ${count} membro`)));
    }
    expect(configProblems(generated.replace(/^( {2}hosts: ).*$/m, "  host: a:2379"), "p.yml")).toContainEqual(
      expect.stringMatching(/etcd3\.hosts com 1 membro/),
    );
    expect(configProblems(generated.replace(/^( {2}hosts: ).*$/m, "  hosts: [a:2379, b:2379, c:2379]"), "p.yml")).toEqual([]);
    expect(configProblems(generated.replace(/^( {2}hosts: ).*$/m, "  srv: etcd.interno"), "p.yml")).toEqual([]);
    const noFailsafe = generated.replace(/^ {4}failsafe_mode: true\n/m, "");
    expect(configProblems(noFailsafe, "p.yml")).toEqual([
      "p.yml: bootstrap.dcs.failsafe_mode não é true: com o etcd fora de alcance o primário se rebaixa e as gravações param até o etcd voltar.",
    ]);
    for (const value of ["false", '"true"', "yes", "1"]) {
      expect(configProblems(generated.replace(/^( {4}failsafe_mode: ).*$/m, `$1${value}`), "p.yml"), value).toHaveLength(1);
    }
    const badTimings = generated.replace(/^( {4}retry_timeout: ).*$/m, "$110");
    expect(configProblems(badTimings, "p.yml")).toContainEqual(expect.stringMatching(/loop_wait \+ 2 × retry_timeout ≤ ttl/));
    expect(configProblems(generated.replace(/^( {4}ttl: ).*$/m, '$1"30"'), "p.yml")).toContainEqual(expect.stringMatching(/numéricos/));
  });

  it("npm run cluster -- check: 0 for the cluster's files, 1 with a line per problem for the shipped template", () => {
    const good = path.join(tmp, "patroni-bom.yml");
    fs.writeFileSync(good, patroniConfig(template, 0, SECRETS));
    const lines: string[] = [];
    expect(checkConfigFiles([good], (line) => lines.push(line))).toBe(true);
    expect(checkConfigFiles(["deploy/patroni.yml", path.join(tmp, "nao-existe.yml")], (line) => lines.push(line))).toBe(false);
    expect(lines.some((line) => line.startsWith("deploy/patroni.yml:"))).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/nao-existe\.yml: não foi possível ler \(ENOENT\)/));
  });

  it("the systemd drop-in refuses to start Patroni or PgBouncer with a placeholder left, in Portuguese", () => {
    const dropIn = read("deploy/recusa-valor-de-exemplo.conf");
    const script = /^ExecStartPre=\/bin\/sh -c '(.*)'$/m.exec(dropIn)?.[1];
    expect(script).toBeTruthy();
    const run = (files: string[]) =>
      spawnSync("/bin/sh", ["-c", script!], { env: { PATH: process.env.PATH, B1_CONFIG: files.join(" ") }, encoding: "utf8" });
    const shipped = run(["deploy/patroni.yml"]);
    expect(shipped.status).toBe(1);
    expect(shipped.stderr).toMatch(/Recusado: deploy\/patroni\.yml ainda tem um valor de exemplo/);
    const good = path.join(tmp, "patroni-servico.yml");
    fs.writeFileSync(good, patroniConfig(template, 0, SECRETS));
    const bouncer = path.join(tmp, "pgbouncer.ini");
    fs.writeFileSync(bouncer, read("deploy/pgbouncer.ini"));
    expect(run([good, bouncer]).status).toBe(0);
    const userlist = path.join(tmp, "userlist.txt");
    fs.writeFileSync(userlist, '"b1" "TROQUE-senha-do-portal"\n');
    expect(run([good, userlist]).status).toBe(1);
  });

  it("generates each secret once, random and distinct, in a 0700 folder of 0600 files; refuses one others can read", () => {
    const dir = path.join(tmp, "segredos");
    const first = clusterSecrets(dir);
    expect(clusterSecrets(dir)).toEqual(first);
    expect(new Set(Object.values(first)).size).toBe(SECRET_NAMES.length);
    for (const value of Object.values(first)) expect(value).toMatch(/^[\w-]{43}$/);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of SECRET_NAMES) expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    // 50 runs at once on a fresh folder: one secret per name, every run reads the same.
    const fresh = path.join(tmp, "segredos-paralelos");
    const all = Array.from({ length: 50 }, () => clusterSecrets(fresh));
    for (const secrets of all) expect(secrets).toEqual(all[0]);
    expect(fs.readdirSync(fresh).sort()).toEqual([...SECRET_NAMES].sort());
    // A link planted in place of a secret (to a file its planter reads) is refused, not followed.
    const planted = path.join(tmp, "segredo-plantado");
    fs.writeFileSync(planted, "p".repeat(43), { mode: 0o600 });
    fs.renameSync(path.join(dir, "rewind"), path.join(tmp, "rewind-guardado"));
    fs.symlinkSync(planted, path.join(dir, "rewind"));
    expect(() => clusterSecrets(dir)).toThrow(/Segredo recusado: .*rewind precisa ser um arquivo seu com modo 600/);
    fs.rmSync(path.join(dir, "rewind"));
    fs.renameSync(path.join(tmp, "rewind-guardado"), path.join(dir, "rewind"));
    fs.chmodSync(path.join(dir, "restapi"), 0o644);
    expect(() => clusterSecrets(dir)).toThrow(/Segredo recusado: .*restapi precisa ser um arquivo seu com modo 600 \(está 644/);
    fs.chmodSync(path.join(dir, "restapi"), 0o600);
    fs.writeFileSync(path.join(dir, "restapi"), "troque-esta-senha");
    expect(() => clusterSecrets(dir)).toThrow(/não tem um segredo válido/);
    fs.writeFileSync(path.join(dir, "restapi"), first.superuser);
    expect(() => clusterSecrets(dir)).toThrow(/têm o mesmo valor/);
    fs.chmodSync(dir, 0o777);
    expect(() => clusterSecrets(dir)).toThrow(/Pasta de cache recusada|pode ser escrita por outros/);
  });
});

describe("restarting a killed component (issue 63)", () => {
  it("runs only a start record of this user's, mode 600, naming one of the cluster's programs", () => {
    const file = path.join(tmp, "pgbouncer.start.json");
    const record = { command: "/usr/sbin/pgbouncer", args: ["/x/pgbouncer.ini"], options: { asPostgres: true } };
    fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
    expect(readStartRecord(file, ["/usr/sbin/pgbouncer"])).toEqual(record);
    // The run/ folder belongs to the user PostgreSQL runs as: a record it could write must not start anything.
    fs.chmodSync(file, 0o644);
    expect(() => readStartRecord(file, ["/usr/sbin/pgbouncer"])).toThrow(/precisa ser um arquivo seu com modo 600/);
    fs.chmodSync(file, 0o600);
    for (const hostile of [
      { command: "/bin/sh", args: ["-c", "id"] },
      { command: "/usr/sbin/pgbouncer", args: [1] },
      { command: ["/usr/sbin/pgbouncer"], args: [] },
      { command: "/usr/sbin/pgbouncer" },
    ]) {
      fs.writeFileSync(file, JSON.stringify(hostile));
      expect(() => readStartRecord(file, ["/usr/sbin/pgbouncer"]), JSON.stringify(hostile)).toThrow(/não descreve um programa do cluster/);
    }
    const link = path.join(tmp, "link.start.json");
    fs.symlinkSync(file, link);
    expect(() => readStartRecord(link, ["/usr/sbin/pgbouncer"])).toThrow(/precisa ser um arquivo seu/);
  });
});

describe("npm run cluster's command line", () => {
  it("takes the documented commands and refuses anything else in Portuguese, starting nothing", () => {
    expect(parseClusterArgs(["up"])).toEqual({ command: "up", instances: 3 });
    expect(parseClusterArgs(["up", "--instances", "12"])).toEqual({ command: "up", instances: 12 });
    expect(parseClusterArgs(["down", "--purge"])).toEqual({ command: "down", purge: true });
    expect(parseClusterArgs(["roll", "--load", "20"])).toEqual({ command: "roll", loadSeconds: 20 });
    expect(parseClusterArgs(["check", "/etc/patroni/config.yml"])).toEqual({ command: "check", files: ["/etc/patroni/config.yml"] });
    for (const argv of [
      [],
      ["__proto__"],
      ["constructor"],
      ["toString"],
      ["up", "--instances", "13"],
      ["up", "--instances", "0"],
      ["up", "--instances", "1e1"],
      ["up", "--instances", "-3"],
      ["up", "--instances", "99999999999999999999"],
      ["up", "--instances"],
      ["up", "--purge"],
      ["roll", "--load", "abc"],
      ["roll", "--load", "601"],
      ["status", "--instances", "3"],
      ["up", "--instances", "3\u202e"],
      ["up", "--instances", "٣"],
      ["check"],
      ["check", "--purge"],
      ["check", ""],
      ["check", "a\u202e.yml"],
      ["check", "a\nb"],
      ["check", ...Array.from({ length: 51 }, () => "a.yml")],
    ]) {
      const parsed = parseClusterArgs(argv);
      expect(parsed, JSON.stringify(argv)).toHaveProperty("error");
      expect((parsed as { error: string }).error).toMatch(/uso:|opção|número|de 1 a 12|no máximo|check:/);
    }
  });

  it("B1_CLUSTER_PORT: a port from 1024 to 65000, else a Portuguese error", () => {
    expect(clusterBasePort(undefined)).toBe(20400);
    expect(clusterBasePort("30000")).toBe(30000);
    for (const bad of ["abc", "80", "70000", "1e4", " 30000", "30000\n", "__proto__", "٣٠٠٠٠"]) {
      expect(() => clusterBasePort(bad), bad).toThrow(/B1_CLUSTER_PORT inválida/);
    }
  });
});
