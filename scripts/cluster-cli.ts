/**
 * `npm run cluster -- up|down|status|roll|check`: the command line of the reference cluster
 * (scripts/cluster.ts); `roll --load <s>` runs the mixed load meanwhile (scripts/cluster-load.ts);
 * `check <file>…` refuses a configuration file with a placeholder left or no control-plane authentication.
 */
import fs from "node:fs";
import path from "node:path";
import { alive, checkConfigFiles, down, parseClusterArgs, pidOf, roll, ROOT, status, up } from "./cluster.ts";
import { rollUnderLoad } from "./cluster-load.ts";

async function main(): Promise<void> {
  const parsed = parseClusterArgs(process.argv.slice(2));
  if ("error" in parsed) {
    console.error(parsed.error);
    process.exitCode = 2;
    return;
  }
  if (parsed.command === "check") {
    const ok = checkConfigFiles(parsed.files);
    if (ok) console.log(`ok: ${parsed.files.join(", ")}`);
    process.exitCode = ok ? 0 : 1;
    return;
  }
  if (parsed.command === "up") return up(parsed.instances);
  if (parsed.command === "down") return down(parsed.purge);
  if (parsed.command === "status") {
    process.exitCode = (await status()) ? 0 : 1;
    return;
  }
  if (!alive(pidOf("haproxy-a"))) throw new Error("o cluster não está no ar (npm run cluster -- up)");
  // One roll at a time: a second one would disable the instance the first is bringing back.
  const lock = path.join(ROOT, "run", "roll.lock");
  let handle: number;
  try {
    handle = fs.openSync(lock, "wx");
  } catch {
    throw new Error(`já há uma troca em andamento (${lock}; apague-o se nenhuma estiver rodando)`);
  }
  try {
    await rollWithLoad(parsed.loadSeconds);
  } finally {
    fs.closeSync(handle);
    fs.rmSync(lock, { force: true });
  }
}

/** `roll --load <s>`: the mixed load through HAProxy during the roll (and `s` seconds at least), then its failures. */
async function rollWithLoad(seconds: number): Promise<void> {
  if (seconds <= 0) return roll();
  const figures = await rollUnderLoad(seconds);
  console.log(JSON.stringify(figures));
  if (figures.failed > 0) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("scripts/cluster-cli.ts")) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
