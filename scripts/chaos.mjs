// `npm run chaos`: the fault suites at full size, printing what an operator needs to know —
// recovery times when PostgreSQL goes away (connections ended, frozen, stopped under load), the
// answers while the disk is full or read-only, the SIGTERM drain, and the backup time of a
// ~100 MB SQLite database under ≥ 50 writes/s, a disk that fills up (SQLite, as root), SIGTERM in a
// burst of connections, the weekly reading digest against a mail server that drops, vanishes or
// refuses (mails per person), and how soon a second instance shows a confirmation in the report's
// totals. Options: --skip-build (reuse dist/), --size <MB>, --memory (also the memory scenario of
// `npm run bench -- --memory`: RSS fresh, after load and idle; ~5 min), --cluster (only the reference
// cluster's scenarios: scripts/cluster-load.ts).
import { spawnSync } from "node:child_process";
import { findBinDir, startCluster } from "./pg-cluster.mjs";

const args = process.argv.slice(2);
const sizeAt = args.indexOf("--size");
const sizeMb = sizeAt === -1 ? "100" : args[sizeAt + 1];

function run(command, commandArgs, env = {}) {
  console.log(`\n==> ${command} ${commandArgs.join(" ")}`);
  const result = spawnSync(command, commandArgs, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  // Only the figures the suites print, and the summary lines.
  const lines = result.stdout
    .split("\n")
    .filter((line) =>
      /de volta|balanceador|congelado|parado|db:backup|gravações|lembrete semanal|totais do relatório|SIGTERM numa|keep-alive|disco cheio|Tests|Test Files|FAIL|×/.test(
        line,
      ),
    );
  console.log(lines.join("\n"));
  return result.status ?? 1;
}

let failed = 0;
if (!args.includes("--skip-build")) failed += run("npm", ["run", "build"]) === 0 ? 0 : 1;

// --cluster: only the reference cluster's scenarios (npm run cluster; etcd, Patroni, HAProxy,
// PgBouncer): the control plane, rolling upgrade, ten single faults under load (the primary's
// PostgreSQL, its Patroni, its node, an etcd member killed or frozen 30 s, etcd away 30 s, etcd cut
// off from the primary only 30 s (one-sided partition), PgBouncer, one HAProxy of the HTTP pair, the PostgreSQL HAProxy), each against its target (writes
// stopped ≤ 10 s, only 503 + Retry-After, 0 lost), 12 instances; ~12 min.
if (args.includes("--cluster")) {
  console.log("\n==> npx tsx scripts/cluster-load.ts");
  const status = spawnSync("npx", ["tsx", "scripts/cluster-load.ts"], { stdio: "inherit" }).status ?? 1;
  console.log(status === 0 && !failed ? "\nchaos --cluster: todos os cenários na meta" : "\nchaos --cluster: há cenário fora da meta");
  process.exit(status === 0 && !failed ? 0 : 1);
}

failed += run(
  "npx",
  [
    "vitest",
    "run",
    "tests/integration/reliability/backup.test.ts",
    "tests/integration/reliability/database-write-failure.test.ts",
    "tests/integration/reliability/disk-full.test.ts",
    "tests/integration/ops/shutdown-drain.test.ts",
    "tests/integration/ops/shutdown-burst.test.ts",
    "tests/integration/reading/digest-outcomes.test.ts",
  ],
  {
    BACKUP_SIZE_MB: sizeMb,
  },
);

if (args.includes("--memory")) {
  failed += run("npx", ["tsx", "scripts/bench/bench.ts", "--memory", "60", "--repeat", "1", "--arenas", "default"]);
}

if (findBinDir()) {
  const cluster = await startCluster();
  try {
    failed += run(
      "npx",
      [
        "vitest",
        "run",
        "tests/integration/reliability/database-outage.test.ts",
        "tests/integration/ops/load-balancer-outage.test.ts",
        "tests/integration/reliability/database-write-failure.test.ts",
        "tests/integration/reading/digest-outcomes.test.ts",
        "tests/integration/reading/tallies-instances.test.ts",
      ],
      { TEST_DATABASE: "postgres", TEST_PG_URL: cluster.url, DATABASE_URL: cluster.url },
    );
  } finally {
    await cluster.stop();
  }
} else {
  console.log("\nPostgreSQL não encontrado: os cenários de queda do PostgreSQL foram pulados.");
}
console.log(failed ? `\nchaos: ${failed} etapa(s) falharam` : "\nchaos: todos os cenários passaram");
process.exit(failed ? 1 : 0);
