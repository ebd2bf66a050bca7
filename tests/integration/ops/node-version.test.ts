/**
 * The npm scripts on a Node older than the project needs: one Portuguese line saying how to fix it
 * and a non-zero exit, instead of better-sqlite3's silent segfault (exit 139) on Node 20.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeTooOld, requiredNode } from "../../../scripts/check-node.mjs";

/** The system Node of this machine's image (Debian's, 20.x); absent elsewhere, where the run test is skipped. */
const OLD_NODE = "/usr/bin/node";
const oldNodeVersion = fs.existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim() : "";
const hasOldNode = oldNodeVersion !== "" && nodeTooOld(oldNodeVersion);
const scripts = Object.keys((JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts);

/** `npm run <script>` with the system Node (and its npm) first on PATH; the whole process group is killed after 30 s. */
function runWithOldNode(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", ...args], {
      env: { ...process.env, PATH: `/usr/bin:${process.env.PATH}`, DATABASE_PATH: "/nao/existe/b1.sqlite" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 30_000);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : null), output });
    });
  });
}

const advice = (version: string) =>
  `Este comando precisa do Node ≥ ${requiredNode().join(".")} (encontrado ${version}). Rode \`source scripts/use-node.sh\` e tente de novo.`;

describe("Node version check", () => {
  it("the minimum is the one package.json declares, and versions compare by major then minor", () => {
    expect(JSON.parse(fs.readFileSync("package.json", "utf8")).engines.node).toBe(`>=${requiredNode().join(".")}`);
    expect(nodeTooOld("v20.20.2")).toBe(true);
    expect(nodeTooOld("v22.11.9")).toBe(true);
    expect(nodeTooOld("v22.12.0")).toBe(false);
    expect(nodeTooOld("v23.0.0")).toBe(false);
    expect(nodeTooOld("v100.1.0")).toBe(false);
  });

  it("passes silently on the Node running the tests", () => {
    const result = spawnSync(process.execPath, ["scripts/check-node.mjs"], { encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout + result.stderr).toBe("");
  });

  it.skipIf(!hasOldNode)(
    "npm run user -- list with the system Node 20 first on PATH says what to do instead of crashing",
    { timeout: 60_000 },
    async () => {
      const result = await runWithOldNode(["user", "--", "list"]);
      expect(result.code, result.output).toBe(1);
      expect(result.output.trim()).toBe(advice(oldNodeVersion));
    },
  );

  it.skipIf(!hasOldNode)("every npm script checks the Node version before running anything", { timeout: 180_000 }, async () => {
    const refused: string[] = [];
    for (let start = 0; start < scripts.length; start += 4) {
      const batch = scripts.slice(start, start + 4);
      const results = await Promise.all(batch.map((script) => runWithOldNode([script])));
      results.forEach((result, index) => {
        if (result.code === 1 && result.output.trim() === advice(oldNodeVersion)) refused.push(batch[index]!);
        else console.error(`npm run ${batch[index]} com ${oldNodeVersion}: saída ${result.code}\n${result.output.slice(-2000)}`);
      });
    }
    expect(refused).toEqual(scripts);
  });
});
