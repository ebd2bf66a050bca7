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

  it("never runs a bundle changed after it was made, nor one in a cache folder others can write", { timeout: 120_000 }, () => {
    // Failed before (issue 62 item 4): the bundle named in user.json ran as found.
    expect(run("scripts/user.ts", "list").code).toBe(0);
    const cache = "node_modules/.cache/b1-scripts";
    const meta = JSON.parse(fs.readFileSync(`${cache}/user.json`, "utf8")) as { bundle: string };
    fs.writeFileSync(meta.bundle, 'console.log("CODIGO PLANTADO"); process.exit(0);');
    const tampered = run("scripts/user.ts", "list");
    expect(tampered.code, tampered.output).toBe(0);
    expect(tampered.output).not.toContain("CODIGO PLANTADO");
    // A bundle named in user.json outside the cache folder is not run either.
    const outside = path.join(os.tmpdir(), `b1-plantado-${process.pid}.mjs`);
    fs.writeFileSync(outside, 'console.log("CODIGO PLANTADO"); process.exit(0);');
    const current = JSON.parse(fs.readFileSync(`${cache}/user.json`, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(`${cache}/user.json`, JSON.stringify({ ...current, bundle: outside }));
    const moved = run("scripts/user.ts", "list");
    fs.rmSync(outside, { force: true });
    expect(moved.output).not.toContain("CODIGO PLANTADO");
    expect(moved.code, moved.output).toBe(0);
    // The folder writable by others: refused with one Portuguese line, and the command still runs (under tsx).
    fs.chmodSync(cache, 0o777);
    try {
      const open = run("scripts/user.ts", "list");
      expect(open.code, open.output).toBe(0);
      expect(open.output).toMatch(
        /Pasta de cache recusada: .*b1-scripts pode ser escrita por outros usuários \(modo 777\).*Rodando sem o cache/,
      );
    } finally {
      fs.chmodSync(cache, 0o700);
    }
  });

  it("refuses, in Portuguese, anything but a script of the project", () => {
    for (const script of ["scripts/../package.json", "/etc/passwd", "scripts/nao-existe.ts", "scripts/user.ts\u202e", ""]) {
      const result = run(script);
      expect(result.code, script).toBe(2);
      expect(result.output.trim()).toMatch(/^Erro: script desconhecido: /);
    }
  });
});
