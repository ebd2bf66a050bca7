import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm run user` runs scripts/user.ts bundled (scripts/run-script.mjs), made again only when a file it came from changed.
const run = (...args: string[]) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-run-script-"));
  const result = spawnSync(process.execPath, ["scripts/run-script.mjs", ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, DATABASE_PATH: path.join(dir, "b1.sqlite"), AUTH_ALLOWED_DOMAINS: "b1.example.com" },
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
};

describe("scripts/run-script.mjs", () => {
  it("runs the user command from a bundle listed with the files it was made from", { timeout: 60_000 }, () => {
    const first = run("scripts/user.ts", "list");
    expect(first.code, first.output).toBe(0);
    const meta = JSON.parse(fs.readFileSync("node_modules/.cache/b1-scripts/user.json", "utf8")) as {
      bundle: string;
      inputs: Record<string, number>;
    };
    expect(Object.keys(meta.inputs)).toContain("scripts/user.ts");
    expect(Object.keys(meta.inputs).some((file) => file.includes("drizzle-orm"))).toBe(true);
    expect(fs.existsSync(meta.bundle)).toBe(true);
    const again = run("scripts/user.ts", "nada");
    expect(again.code).not.toBe(0);
    expect(again.output).toContain("Uso:");
  });

  it("refuses, in Portuguese, anything but a script of the project", () => {
    for (const script of ["scripts/../package.json", "/etc/passwd", "scripts/nao-existe.ts", "scripts/user.ts\u202e", ""]) {
      const result = run(script);
      expect(result.code, script).toBe(2);
      expect(result.output.trim()).toMatch(/^Erro: script desconhecido: /);
    }
  });
});
