/**
 * Configuration declared once (issue 65): the settings table in docs/configuracao.md is the one the
 * schema generates, .env.example names only declared settings (and every one an operator sets), and
 * no production code under src/ reads process.env except the schema's module.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSettings, settingsCatalog, validateSettings } from "../../../src/lib/settings.ts";
import { readConfig } from "../../../src/lib/server/config/config.ts";
import { renderSettingsTable, SETTINGS_DOC, withTable } from "../../../scripts/docs-settings.ts";

/** Every file under `dir`, as paths from the repository root (Node's own recursive listing). */
function walk(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => path.join(dir, file));
}

describe("settings schema", () => {
  it("docs/configuracao.md carries the table the schema generates (run npm run docs:settings after a change)", () => {
    const document = fs.readFileSync(SETTINGS_DOC, "utf8");
    expect(withTable(document, renderSettingsTable())).toBe(document);
  });

  it(".env.example names only declared settings, and every setting an operator sets", () => {
    const example = fs.readFileSync(".env.example", "utf8");
    const named = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!));
    const declared = new Map(settingsCatalog().map(({ name, meta }) => [name as string, meta]));
    expect([...named].filter((name) => !declared.has(name))).toEqual([]);
    expect([...declared].filter(([name, meta]) => !meta.interna && !named.has(name)).map(([name]) => name)).toEqual([]);
  });

  it("every setting has a type, a default, a Portuguese description and the component that reads it", () => {
    for (const { name, meta } of settingsCatalog()) {
      expect(meta.tipo, name).toBeTruthy();
      expect(meta.padrao, name).toBeTruthy();
      expect(meta.descricao.length, name).toBeGreaterThan(10);
      expect(meta.componente, name).toBeTruthy();
    }
  });

  it("no production code under src/ reads process.env outside src/lib/settings.ts", () => {
    const readers = walk("src")
      .filter((file) => /\.(ts|tsx|astro|mjs)$/.test(file) && file !== path.join("src", "lib", "settings.ts"))
      .filter((file) => /process\.env\b/.test(fs.readFileSync(file, "utf8")));
    expect(readers).toEqual([]);
  });

  it("keeps only declared names, and the start refuses a bad value with the message it gave before", () => {
    const settings = readSettings({ PORT: "4400", __proto__: "x", constructor: "y", NAO_DECLARADA: "z" } as Record<string, string>);
    expect(Object.keys(settings)).toEqual(["PORT"]);
    expect(() => readConfig({ SMTP_URL: "http://smtp.empresa.com" })).toThrow(/SMTP_URL deve ser um endereço smtp:\/\/ ou smtps:\/\//);
    expect(() => readConfig({ AUDIT_RETENTION_DAYS: "0" })).toThrow('AUDIT_RETENTION_DAYS deve ser um número inteiro ≥ 1 (recebido: "0")');
    expect(() => readConfig({ BACKUP_EXTERNAL: "sim" })).toThrow('BACKUP_EXTERNAL deve ser true ou false (recebido: "sim")');
  });

  it("the schema carries the rules: odd input is refused in Portuguese, never crashes", () => {
    expect(() => validateSettings({ AUDIT_WEBHOOK_BATCH: "0" })).toThrow(
      'AUDIT_WEBHOOK_BATCH deve ser um número inteiro entre 1 e 1000 (recebido: "0")',
    );
    expect(() => validateSettings({ SHUTDOWN_TIMEOUT_MS: "1e309" })).toThrow(/SHUTDOWN_TIMEOUT_MS deve ser um número inteiro ≥ 1/);
    expect(() => validateSettings({ DOCS_URL: "https://git.empresa.com/\u202e" })).toThrow(/DOCS_URL deve ser um endereço/);
    expect(() => validateSettings({ DOCS_URL: `https://${"a".repeat(65_537)}.com` })).toThrow(/até 500 caracteres/);
    expect(() => validateSettings({ INSIGHTS_KEY: "curta" })).toThrow(/INSIGHTS_KEY deve ter 32 bytes/);
    const hostile = JSON.parse('{"__proto__": {"PORT": "1"}, "constructor": "x", "prototype": "y"}') as Record<string, string>;
    expect(validateSettings(hostile)).toEqual({});
    expect(({} as Record<string, unknown>).PORT).toBeUndefined();
  });
});
