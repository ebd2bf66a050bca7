/**
 * `npm run docs:settings`: writes the settings table of docs/configuracao.md from the schema in
 * src/lib/settings.ts (tests/unit/docs/settings.test.ts fails when the two differ).
 */
import fs from "node:fs";
import { settingsCatalog } from "../src/lib/settings.ts";

export const SETTINGS_DOC = "docs/configuracao.md";
export const TABLE_START = "<!-- tabela gerada por npm run docs:settings: não edite à mão -->";
export const TABLE_END = "<!-- fim da tabela gerada -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The Markdown table of every setting an operator sets (internal ones left out). */
export function renderSettingsTable(): string {
  const rows = settingsCatalog()
    .filter(({ meta }) => !meta.interna)
    .map(({ name, meta }) => `| \`${name}\` | ${meta.tipo} | ${cell(meta.padrao)} | ${cell(meta.descricao)} | ${cell(meta.componente)} |`);
  return ["| Variável | Tipo | Padrão | Para quê | Quem lê |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/** The document with its generated table replaced by `table`. */
export function withTable(document: string, table: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${SETTINGS_DOC} perdeu as marcas da tabela gerada (${TABLE_START} … ${TABLE_END})`);
  return `${document.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${document.slice(end)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const current = fs.readFileSync(SETTINGS_DOC, "utf8");
  const next = withTable(current, renderSettingsTable());
  if (next === current) console.log(`${SETTINGS_DOC}: tabela já atualizada`);
  else {
    fs.writeFileSync(SETTINGS_DOC, next);
    console.log(`${SETTINGS_DOC}: tabela atualizada`);
  }
}
