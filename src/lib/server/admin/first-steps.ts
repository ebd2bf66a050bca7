/**
 * 'Primeiros passos' on the admin overview: what a fresh portal still runs on (example allowed domains,
 * two-factor off, no SMTP, no audit key, no recent backup), read live from the configuration and the
 * backup record, each with the documentation section that fixes it. Empty once everything is done.
 */
import fs from "node:fs";
import type { Config } from "../config/config.ts";

export interface FirstStep {
  id: "dominios" | "dois-fatores" | "smtp" | "chave-auditoria" | "backup";
  titulo: string;
  detalhe: string;
  /** Documentation: file and section, and the address when DOCS_URL is set. */
  documentacao: { texto: string; href: string | null };
}

/** A backup older than this (the daily timer plus a missed night) counts as none. */
export const BACKUP_MAX_AGE_MS = 48 * 60 * 60 * 1000;

/** The file `npm run db:backup` writes beside the SQLite database after each checked copy. */
export function backupRecordPath(databasePath: string): string {
  return `${databasePath}.ultimo-backup`;
}

/** When the last checked copy finished, or null (none recorded, or a record that is not one). */
export function readBackupRecord(databasePath: string): Date | null {
  try {
    const raw = fs.readFileSync(backupRecordPath(databasePath), "utf8");
    if (raw.length > 1024) return null;
    const parsed: unknown = JSON.parse(raw);
    const at = parsed && typeof parsed === "object" && Object.hasOwn(parsed, "em") ? (parsed as { em: unknown }).em : null;
    const date = typeof at === "string" ? new Date(at) : null;
    return date && Number.isFinite(date.getTime()) ? date : null;
  } catch {
    return null;
  }
}

/** A domain or address reserved for examples (RFC 2606/6761): a label `example`, or a .test/.invalid/.localhost end. */
export function isExampleDomain(value: string): boolean {
  const domain = value.slice(value.lastIndexOf("@") + 1).toLowerCase();
  const labels = domain.split(".");
  return labels.includes("example") || ["test", "invalid", "localhost"].includes(labels.at(-1) ?? "");
}

export const FIRST_STEP_DOCS: Record<FirstStep["id"], [file: string, anchor: string, text: string]> = {
  dominios: ["docs/configuracao.md", "variáveis", "docs/configuracao.md, Variáveis (AUTH_ALLOWED_DOMAINS)"],
  "dois-fatores": ["docs/security.md", "verificação-em-duas-etapas-e-sessões", "docs/security.md, Verificação em duas etapas"],
  smtp: ["docs/configuracao.md", "variáveis", "docs/configuracao.md, Variáveis (SMTP_URL)"],
  "chave-auditoria": [
    "docs/security.md",
    "integridade-do-log-de-auditoria-cadeia-de-hashes",
    "docs/security.md, Integridade do log de auditoria",
  ],
  backup: ["docs/implantacao.md", "5-cópias-de-segurança", "docs/implantacao.md, 5. Cópias de segurança"],
};

function documentation(id: FirstStep["id"], docsUrl: string): FirstStep["documentacao"] {
  const [file, anchor, text] = FIRST_STEP_DOCS[id];
  return { texto: text, href: docsUrl ? `${docsUrl}/${file}#${encodeURIComponent(anchor)}` : null };
}

export interface FirstStepsInput {
  config: Pick<
    Config,
    "allowedDomains" | "allowedEmails" | "smtpUrl" | "auditChainKey" | "twoFactor" | "databasePath" | "docsUrl" | "backupExternal"
  >;
  postgres: boolean;
  lastBackup: Date | null;
  now: Date;
}

/** The steps still to do, in the order an admin meets them. */
export function firstSteps({ config, postgres, lastBackup, now }: FirstStepsInput): FirstStep[] {
  const steps: FirstStep[] = [];
  const add = (id: FirstStep["id"], titulo: string, detalhe: string) =>
    steps.push({ id, titulo, detalhe, documentacao: documentation(id, config.docsUrl) });
  const examples = [...config.allowedDomains, ...config.allowedEmails].filter(isExampleDomain);
  if (examples.length > 0)
    add(
      "dominios",
      "Domínios autorizados de exemplo",
      `O cadastro aceita endereços de exemplo (${examples.join(", ")}). Defina em AUTH_ALLOWED_DOMAINS os domínios da empresa.`,
    );
  if (!config.twoFactor.key)
    add(
      "dois-fatores",
      "Verificação em duas etapas desligada",
      "Sem TWO_FACTOR_KEY ninguém pode usar o segundo fator, nem administradores. Gere a chave com openssl rand -hex 32.",
    );
  if (!config.smtpUrl)
    add("smtp", "E-mail não configurado", "Sem SMTP_URL as mensagens não saem: ficam em data/outbox e os links só aparecem no console.");
  if (!config.auditChainKey)
    add(
      "chave-auditoria",
      "Log de auditoria sem chave",
      "Sem AUDIT_CHAIN_KEY quem edita o banco pode apagar os registros mais recentes sem deixar rastro.",
    );
  const backupDone = postgres ? config.backupExternal : lastBackup !== null && now.getTime() - lastBackup.getTime() <= BACKUP_MAX_AGE_MS;
  if (!backupDone)
    add(
      "backup",
      "Sem cópia de segurança recente",
      postgres
        ? "Com PostgreSQL o portal não vê o pg_dump: agende-o e defina BACKUP_EXTERNAL=true."
        : lastBackup
          ? `A última cópia (npm run db:backup) terminou em ${lastBackup.toISOString().slice(0, 10)}; agende-a todo dia.`
          : "Nenhuma cópia feita com npm run db:backup. Agende-a todo dia (timer do systemd).",
    );
  return steps;
}
