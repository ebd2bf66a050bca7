/**
 * `npm run bench -- --insights --beacon-nice N` (the beacon sender's priority): a value the system would
 * refuse stops the bench at once with one Portuguese line, instead of failing in os.setPriority after
 * minutes of building the 100,000-person data set. Run as `npm run bench` runs it (tsx: bundled, the
 * pg-cluster module it imports took itself for the command being run).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("bench options", () => {
  // The spawn's own 30 s bound decides, not vitest's default 20 s: tsx loading the bench is ~1 s of CPU, more on a busy machine.
  it.each(["99", "-5", "2.5", "__proto__"])("--beacon-nice %s is refused up front", { timeout: 40_000 }, (value) => {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/bench/bench.ts", "--skip-build", "--insights", "--beacon-nice", value],
      {
        encoding: "utf8",
        timeout: 30_000,
      },
    );
    expect(run.signal, "the bench was still running after 30 s").toBeNull();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("--beacon-nice aceita um número inteiro de 0 a 19");
  });
});
