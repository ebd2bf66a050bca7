// `npm test`: build once, run vitest then Playwright, and print one summary line CI can read.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const results = "test-results";
fs.mkdirSync(results, { recursive: true });

function run(command, args) {
  console.log(`\n==> ${command} ${args.join(" ")}`);
  return spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32" }).status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

if (run("npm", ["run", "build"]) !== 0) {
  console.log("\n0 passed, 1 failed (build)");
  process.exit(1);
}

const vitestStatus = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}/vitest.json`]);
const playwrightStatus = run("npx", ["playwright", "test"]);

const vitest = readJson(`${results}/vitest.json`);
const playwright = readJson(`${results}/playwright.json`);
let passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
let failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (playwright?.stats?.skipped ?? 0);
// A runner that died without a report still fails the run.
if (vitestStatus !== 0 && !vitest?.numFailedTests) failed += 1;
if (playwrightStatus !== 0 && !playwright?.stats?.unexpected) failed += 1;

console.log(
  `\nvitest: ${vitest?.numPassedTests ?? 0} passed, ${vitest?.numFailedTests ?? 0} failed · playwright: ${playwright?.stats?.expected ?? 0} passed, ${playwright?.stats?.unexpected ?? 0} failed`,
);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
