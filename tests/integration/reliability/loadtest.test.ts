import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { freshDatabaseUrl } from "../../support/pg";

it("npm run loadtest (small size) reports every kind, no 5xx and every acknowledged write stored", { timeout: 120_000 }, async () => {
  // PostgreSQL pass: an empty database of its own on the test cluster.
  const url = await freshDatabaseUrl();
  const run = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/loadtest.ts",
      "--duration",
      "4",
      "--people",
      "3",
      "--targets",
      "2",
      ...(url ? ["--database-url", url] : []),
    ],
    { encoding: "utf8", env: { ...process.env, ...(url ? { DATABASE_URL: url } : {}) } },
  );
  const output = run.stdout + run.stderr;
  expect(run.status, output).toBe(0);
  for (const kind of ["sign-in", "page", "trail", "admin-edit"]) expect(output).toContain(kind);
  expect(output).toContain("5xx: 0 · erros de rede: 0 · escritas confirmadas ausentes ou pela metade: 0");
  // The "outros" column lists refused requests as '<status>×<count>': a write refused by the origin
  // check (403) or an empty allow-list (503) would still leave nothing unacknowledged.
  expect(output).not.toMatch(/'\d{3}×\d+/);
  expect(output).toContain("Resultado: ok");
});
