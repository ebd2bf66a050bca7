import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  backupRecordPath,
  firstSteps,
  isExampleDomain,
  readBackupRecord,
  type FirstStepsInput,
} from "../../../src/lib/server/admin/first-steps";
import { readConfig } from "../../../src/lib/server/config/config";

const KEY = "a".repeat(64);
const NOW = new Date("2026-11-27T12:00:00Z");
const HOUR = 60 * 60 * 1000;

function input(env: Record<string, string>, extra: Partial<Omit<FirstStepsInput, "config">> = {}): FirstStepsInput {
  const config = readConfig({ ...env, DATABASE_PATH: "/tmp/nao-existe/b1.sqlite" });
  return { config, postgres: false, lastBackup: null, now: NOW, ...extra };
}
const DONE = {
  AUTH_ALLOWED_DOMAINS: "empresa.com.br",
  AUTH_ALLOWED_EMAILS: "parceiro@fornecedor.com",
  TWO_FACTOR_KEY: KEY,
  SMTP_URL: "smtp://smtp.empresa.com.br:587",
  AUDIT_CHAIN_KEY: KEY,
};
const ids = (value: FirstStepsInput) => firstSteps(value).map((step) => step.id);

describe("Primeiros passos", () => {
  it("lists all five on a fresh portal (the .env.example values), in order", () => {
    const fresh = input({
      AUTH_ALLOWED_DOMAINS: "b1.example.com,b1.example.com.br,semente.example.org",
      AUTH_ALLOWED_EMAILS: "parceiro@example.net",
    });
    expect(ids(fresh)).toEqual(["dominios", "dois-fatores", "smtp", "chave-auditoria", "backup"]);
    expect(firstSteps(fresh)[0]!.detalhe).toContain("b1.example.com, b1.example.com.br, semente.example.org, parceiro@example.net");
  });

  it("is empty once every step is done, and each step comes back alone", () => {
    const recent = new Date(NOW.getTime() - 47 * HOUR);
    expect(ids(input(DONE, { lastBackup: recent }))).toEqual([]);
    expect(ids(input({ ...DONE, AUTH_ALLOWED_EMAILS: "alguem@exemplo.example" }, { lastBackup: recent }))).toEqual(["dominios"]);
    expect(ids(input({ ...DONE, TWO_FACTOR_KEY: "" }, { lastBackup: recent }))).toEqual(["dois-fatores"]);
    expect(ids(input({ ...DONE, SMTP_URL: "" }, { lastBackup: recent }))).toEqual(["smtp"]);
    expect(ids(input({ ...DONE, AUDIT_CHAIN_KEY: "" }, { lastBackup: recent }))).toEqual(["chave-auditoria"]);
    expect(ids(input(DONE, { lastBackup: new Date(NOW.getTime() - 49 * HOUR) }))).toEqual(["backup"]);
  });

  it("on PostgreSQL the backup step is done by BACKUP_EXTERNAL=true (the portal cannot see pg_dump)", () => {
    expect(ids(input(DONE, { postgres: true }))).toEqual(["backup"]);
    expect(ids(input({ ...DONE, BACKUP_EXTERNAL: "true" }, { postgres: true }))).toEqual([]);
  });

  it("links each step to its documentation section when DOCS_URL is set, and names it otherwise", () => {
    const fresh = input({ AUTH_ALLOWED_DOMAINS: "b1.example.com" });
    expect(firstSteps(fresh).every((step) => step.documentacao.href === null && step.documentacao.texto.length > 0)).toBe(true);
    const linked = firstSteps(input({ AUTH_ALLOWED_DOMAINS: "b1.example.com", DOCS_URL: "https://git.empresa.com/b1/hub/-/blob/main/" }));
    expect(linked.map((step) => step.documentacao.href)).toEqual([
      "https://git.empresa.com/b1/hub/-/blob/main/docs/configuracao.md#vari%C3%A1veis",
      "https://git.empresa.com/b1/hub/-/blob/main/docs/security.md#verifica%C3%A7%C3%A3o-em-duas-etapas-e-sess%C3%B5es",
      "https://git.empresa.com/b1/hub/-/blob/main/docs/configuracao.md#vari%C3%A1veis",
      "https://git.empresa.com/b1/hub/-/blob/main/docs/security.md#integridade-do-log-de-auditoria-cadeia-de-hashes",
      "https://git.empresa.com/b1/hub/-/blob/main/docs/implantacao.md#5-c%C3%B3pias-de-seguran%C3%A7a",
    ]);
  });

  it("knows the reserved example names and nothing else", () => {
    for (const value of ["b1.example.com", "semente.example.org", "parceiro@example.net", "x.example", "a.test", "EXAMPLE.COM"])
      expect(isExampleDomain(value), value).toBe(true);
    for (const value of ["empresa.com.br", "examples.com", "myexample.com", "pessoa@empresa.com"])
      expect(isExampleDomain(value), value).toBe(false);
  });
});

describe("DOCS_URL and BACKUP_EXTERNAL", () => {
  const read = (env: Record<string, string>) => readConfig({ ...process.env, ...env });
  it("refuse, in Portuguese, what cannot be an address or a yes/no", () => {
    for (const value of [
      "nao-url",
      "javascript:alert(1)",
      "ftp://x",
      "https://h\u202e.com",
      "https://exemplo\u200b.com",
      "https://x.com/" + "a".repeat(500),
      "__proto__",
    ])
      expect(() => read({ DOCS_URL: value }), JSON.stringify(value)).toThrow(/^DOCS_URL deve ser um endereço http:\/\/ ou https:\/\//);
    for (const value of ["sim", "yes", "2", "constructor", "true\u200b"])
      expect(() => read({ BACKUP_EXTERNAL: value }), JSON.stringify(value)).toThrow(/^BACKUP_EXTERNAL deve ser true ou false/);
    expect(read({ BACKUP_EXTERNAL: " TRUE " }).backupExternal).toBe(true);
    expect(read({}).backupExternal).toBe(false);
  });
});

describe("the backup record", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-backup-record-"));
  const database = path.join(dir, "b1.sqlite");
  const write = (text: string) => fs.writeFileSync(backupRecordPath(database), text);

  it("reads the time db:backup wrote, and ignores whatever else is in the file", () => {
    expect(readBackupRecord(database)).toBeNull();
    write(JSON.stringify({ em: "2026-11-27T03:15:00.000Z", arquivo: "/var/backups/b1.sqlite" }));
    expect(readBackupRecord(database)?.toISOString()).toBe("2026-11-27T03:15:00.000Z");
    for (const text of [
      '{"__proto__":{"em":"2026-11-27T03:15:00.000Z"}}',
      '{"constructor":{"em":"2026-11-27T03:15:00.000Z"}}',
      '{"em":"ontem"}',
      '{"em":1e309}',
      "[".repeat(5000),
      JSON.stringify({ em: "2026-11-27T03:15:00.000Z", x: "a".repeat(70_000) }),
      "não é json",
    ]) {
      write(text);
      expect(readBackupRecord(database), text.slice(0, 40)).toBeNull();
    }
  });
});
