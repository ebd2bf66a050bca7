/**
 * The reference cluster (`npm run cluster`) runs the production examples of deploy/ with only
 * addresses, ports, paths and loopback trust changed: what it tests is what the guide ships.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  clusterBasePort,
  haproxyPostgresConfig,
  parseClusterArgs,
  patroniConfig,
  pgbouncerClusterConfig,
  PORTS,
} from "../../../scripts/cluster";

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
      const generated = patroniConfig(template, index);
      for (const line of changedLines(template, generated)) expect(line).toMatch(/# cluster:/);
      expect(generated).toContain(`name: pg${index + 1}`);
      expect(generated).toContain(`listen: 127.0.0.1:${PORTS.pg[index]}`);
      expect(generated).not.toMatch(/10\.0\.0\./);
    }
    expect(template).toMatch(/^ {4}synchronous_mode: true$/m);
    const ttl = Number(/^ {4}ttl: (\d+)$/m.exec(template)?.[1]);
    const loopWait = Number(/^ {4}loop_wait: (\d+)$/m.exec(template)?.[1]);
    const retry = Number(/^ {4}retry_timeout: (\d+)$/m.exec(template)?.[1]);
    // Patroni's own rule, and the failover target of ≤ 15 s (the key expires, the standby's next loop promotes).
    expect(loopWait + 2 * retry).toBeLessThanOrEqual(ttl);
    expect(ttl + loopWait).toBeLessThanOrEqual(15);
  });

  it("HAProxy for PostgreSQL: the primary through Patroni's /primary; only bind and server lines change", () => {
    const template = read("deploy/haproxy-postgres.cfg");
    const generated = haproxyPostgresConfig(template);
    for (const line of changedLines(template, generated)) expect(line).toMatch(/^\s+(bind|server)\s/);
    expect(template).toMatch(/^\s+option httpchk GET \/primary$/m);
    expect(template).toMatch(/on-marked-down shutdown-sessions/);
    expect(generated).toContain(`server pg2 127.0.0.1:${PORTS.pg[1]} check port ${PORTS.rest[1]}`);
  });

  it("PgBouncer: transaction pooling as shipped; only addresses, paths and loopback trust change", () => {
    const template = read("deploy/pgbouncer.ini");
    const generated = pgbouncerClusterConfig(template);
    for (const line of changedLines(template, generated)) expect(line).toMatch(/^(b1 =|listen_port|auth_type|auth_file|logfile|pidfile) /);
    expect(template).toMatch(/^pool_mode = transaction$/m);
    expect(template).toMatch(/^ignore_startup_parameters = extra_float_digits,statement_timeout$/m);
    expect(generated).toContain(`b1 = host=127.0.0.1 port=${PORTS.pgPrimary} dbname=b1`);
  });
});

describe("npm run cluster's command line", () => {
  it("takes the documented commands and refuses anything else in Portuguese, starting nothing", () => {
    expect(parseClusterArgs(["up"])).toEqual({ command: "up", instances: 3 });
    expect(parseClusterArgs(["up", "--instances", "12"])).toEqual({ command: "up", instances: 12 });
    expect(parseClusterArgs(["down", "--purge"])).toEqual({ command: "down", purge: true });
    expect(parseClusterArgs(["roll", "--load", "20"])).toEqual({ command: "roll", loadSeconds: 20 });
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
    ]) {
      const parsed = parseClusterArgs(argv);
      expect(parsed, JSON.stringify(argv)).toHaveProperty("error");
      expect((parsed as { error: string }).error).toMatch(/uso:|opção|número|de 1 a 12|no máximo/);
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
