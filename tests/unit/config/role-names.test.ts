import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";

const TWO_FACTOR_KEY = "d".repeat(64);
const VALID = "Perfis válidos: admin, lider, visualizador, security";
const OIDC = { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "portal" };

describe("role names in the configuration", () => {
  it("a typo in TWO_FACTOR_REQUIRED_ROLES stops the start, naming it and the valid roles", () => {
    expect(() => readConfig({ TWO_FACTOR_KEY, TWO_FACTOR_REQUIRED_ROLES: "admn,security" })).toThrow(
      `TWO_FACTOR_REQUIRED_ROLES: perfil desconhecido "admn". ${VALID}`,
    );
  });

  it("a typo on the role side of OIDC_ROLE_MAP stops the start, naming it", () => {
    expect(() => readConfig({ ...OIDC, OIDC_ROLE_MAP: "grupo-ti:admin,lideres:lidr" })).toThrow(
      `OIDC_ROLE_MAP: perfil desconhecido "lidr". ${VALID}`,
    );
  });

  it("custom roles (kept in the database) are not accepted there: the configuration is read before the database", () => {
    expect(() => readConfig({ TWO_FACTOR_KEY, TWO_FACTOR_REQUIRED_ROLES: "admin,marketing,financeiro" })).toThrow(
      `TWO_FACTOR_REQUIRED_ROLES: perfis desconhecidos "marketing", "financeiro". ${VALID}`,
    );
    expect(() => readConfig({ ...OIDC, OIDC_ROLE_MAP: "grupo-mkt:marketing" })).toThrow(/"marketing"/);
  });

  it("system role names pass, whatever their case and spacing", () => {
    const config = readConfig({
      TWO_FACTOR_KEY,
      TWO_FACTOR_REQUIRED_ROLES: " Admin , SECURITY,lider",
      ...OIDC,
      OIDC_ROLE_MAP: "grupo-ti:Admin,leitores:visualizador,urn:grupo:sec:security",
    });
    expect(config.twoFactor.requiredRoles).toEqual(["admin", "security", "lider"]);
    expect(Object.fromEntries(config.oidc!.roleMap)).toEqual({
      "grupo-ti": ["admin"],
      leitores: ["visualizador"],
      "urn:grupo:sec": ["security"],
    });
  });

  it("the built server refuses to start on such a typo and says why in Portuguese", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-config-"));
    const run = spawnSync(process.execPath, ["dist/gate/main.mjs"], {
      env: { ...process.env, PORT: "0", DATABASE_PATH: path.join(dir, "db.sqlite"), TWO_FACTOR_KEY, TWO_FACTOR_REQUIRED_ROLES: "admn" },
      encoding: "utf8",
      timeout: 20_000,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.status).not.toBe(0);
    expect(run.stderr + run.stdout).toContain(`TWO_FACTOR_REQUIRED_ROLES: perfil desconhecido "admn". ${VALID}`);
  });
});
