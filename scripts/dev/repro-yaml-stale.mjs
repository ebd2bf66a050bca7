#!/usr/bin/env node
/**
 * Reproduction loop for "astro dev keeps serving a YAML page's old text after a save" (tool, not a test).
 *
 *   node scripts/dev/repro-yaml-stale.mjs [starts=10] [--port=4531] [--project=DIR] [--wait=15000] [--interval=100] [--parallel=1] [--saves=3] [--keep-code] [--label=x]
 *
 * Copies the project with ./project-copy.ts (or reuses --project), builds it once (as the
 * acceptance test does, so `astro dev` starts from the build's .astro/), then per start: restores the
 * build's .astro/ and content/faq.yaml, starts `astro dev`, waits for /faq, saves content/faq.yaml three
 * (--saves, up to 5) times with a new wording each (--keep-code: a reused copy keeps its own scripts/ and src/, e.g. an older
 * version to compare with) and polls /faq up to --wait ms for each. On a miss it records whether
 * .astro/data-store.json already has the new wording and keeps the dev server's log.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanEnv, copyProject } from "./project-copy.ts";

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((arg, index) =>
      arg.startsWith("--") ? [...arg.slice(2).split("="), true].slice(0, 2) : index === 0 ? ["starts", arg] : [arg, true],
    ),
);
const starts = Number(args.starts ?? 10);
const port = Number(args.port ?? 4531);
const waitMs = Number(args.wait ?? 15_000);
const label = args.label ?? "run";
/** Time between two requests while waiting for a wording; a short one keeps a request in flight when the store is written. */
const intervalMs = Number(args.interval ?? 100);
/** How many requests are under way at a time while waiting (the acceptance test uses 3). */
const parallel = Number(args.parallel ?? 1);
const ORIGINAL = "O que é a Metodologia B1?";
const WORDINGS = [
  "O que é, afinal, a Metodologia B1?",
  "O que é, enfim, a Metodologia B1?",
  "O que é, de fato, a Metodologia B1?",
  "O que é, na prática, a Metodologia B1?",
  "O que é, em resumo, a Metodologia B1?",
].slice(0, Number(args.saves ?? 3));

const env = cleanEnv();

let project = args.project;
if (!project) {
  project = copyProject("b1-stale-");
  console.log(`copy: ${project}`);
} else if (!args["keep-code"]) {
  // Reused copy: our code is taken again from this checkout (the fix under test), the build's .astro stays.
  for (const dir of ["scripts", "src"]) fs.cpSync(dir, path.join(project, dir), { recursive: true });
}
const snapshot = path.join(project, ".astro-after-build");
const faqFile = path.join(project, "content", "faq.yaml");
if (!fs.existsSync(snapshot)) {
  const started = Date.now();
  const build = spawnSync("npm", ["run", "build"], { cwd: project, env, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`build failed:\n${(build.stdout + build.stderr).slice(-4000)}`);
  fs.cpSync(path.join(project, ".astro"), snapshot, { recursive: true });
  fs.copyFileSync(faqFile, faqFile + ".orig");
  console.log(`build: ${Math.round((Date.now() - started) / 1000)} s`);
}
const original = fs.readFileSync(faqFile + ".orig", "utf8");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const url = `http://127.0.0.1:${port}/faq`;
const fetchFaq = async () => {
  try {
    return await (await fetch(url, { signal: AbortSignal.timeout(20_000) })).text();
  } catch {
    return "";
  }
};
/** When `text` was first asked for and seen (undefined: not within `timeout`), asked by `parallel` requesters. */
async function poll(text, timeout, interval, parallel = 1) {
  const until = Date.now() + timeout;
  let seen;
  const ask = async () => {
    while (seen === undefined) {
      const started = Date.now();
      if ((await fetchFaq()).includes(text)) seen ??= started;
      else if (Date.now() > until) return;
      else await sleep(interval);
    }
  };
  await Promise.all(Array.from({ length: parallel }, ask));
  return seen;
}

// A new folder of this user's (mkdtemp: 0700, unpredictable name), not a fixed name in the shared temporary folder.
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `b1-stale-logs-${label.replace(/[^\w-]/g, "_")}-`));
const results = [];
for (let run = 1; run <= starts; run++) {
  fs.rmSync(path.join(project, ".astro"), { recursive: true, force: true });
  fs.cpSync(snapshot, path.join(project, ".astro"), { recursive: true });
  fs.writeFileSync(faqFile, original);
  const dev = spawn("npx", ["astro", "dev", "--port", String(port), "--host", "127.0.0.1"], {
    cwd: project,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  const t0 = Date.now();
  const stamp = (chunk) => (log += String(chunk).replace(/^(?=.)/gm, `[+${Date.now() - t0}ms] `));
  dev.stdout.on("data", stamp);
  dev.stderr.on("data", stamp);
  const outcome = { run, misses: [], startMs: 0, seenMs: [] };
  try {
    if (!(await poll(ORIGINAL, 120_000, 500))) {
      outcome.error = "did not start";
    } else {
      outcome.startMs = Date.now() - t0;
      for (const [index, wording] of WORDINGS.entries()) {
        const saved = Date.now();
        stamp(`--- save ${index + 1}: ${wording}\n`);
        fs.writeFileSync(faqFile, original.replace(ORIGINAL, wording));
        const seen = await poll(wording, waitMs, intervalMs, parallel);
        if (seen) {
          outcome.seenMs.push(seen - saved);
          continue;
        }
        const store = fs.readFileSync(path.join(project, ".astro", "data-store.json"), "utf8");
        outcome.misses.push({ save: index + 1, storeHasNew: store.includes(wording) });
        stamp(`--- MISS save ${index + 1}; data-store.json has new text: ${store.includes(wording)}\n`);
        // Instrumented Astro (temporary logs) dumps its module graph and runner when this file appears.
        fs.writeFileSync(path.join(project, ".astro", "b1-dump"), "");
        await sleep(2500);
        break; // the next wordings would only measure the same stale state
      }
    }
  } finally {
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {}
    await new Promise((resolve) => (dev.exitCode !== null ? resolve() : dev.once("exit", resolve)));
  }
  const file = path.join(logDir, `start-${run}.log`);
  fs.writeFileSync(file, log);
  results.push(outcome);
  console.log(
    `start ${run}: ${outcome.error ?? (outcome.misses.length ? `MISS ${JSON.stringify(outcome.misses)}` : "ok")} ` +
      `(ready ${outcome.startMs} ms; seen after ${outcome.seenMs.join(", ")} ms) log ${file}`,
  );
}
const missed = results.filter((result) => result.misses.length).length;
const failed = results.filter((result) => result.error).length;
console.log(
  `${label}: ${missed} of ${results.length - failed} starts kept old text (${failed} did not start); load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
