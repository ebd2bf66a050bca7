/** The required-reading report (admins and líderes): its filter and what the server answers. */
import { z } from "zod";

/** The report's page; its JSON and CSV live under /api/leitura/relatorio. */
export const READING_REPORT_PATH = "/leitura/relatorio";
/** People per page of the list. */
export const REPORT_PAGE_SIZE = 50;

/** The report's filter, from the query string; empty fields mean "any". */
export const readingReportFilterSchema = z.strictObject({
  /** The page (route path); absent: the first required page the viewer may open. */
  pagina: z.string().max(300, "Página inválida").optional(),
  /** The version whose confirmation is asked (confirmed = this version or a newer one); absent: the current one. */
  versao: z.coerce.number({ error: "Versão inválida" }).int("Versão inválida").min(1, "Versão inválida").optional(),
  /** A role name (system or custom). */
  perfil: z.string().max(60, "Perfil inválido").optional(),
  situacao: z.enum(["confirmada", "pendente"], { error: "Situação inválida: use confirmada ou pendente" }).optional(),
  /** Part of the name or e-mail. */
  busca: z.string().max(120, "Busca longa demais (até 120 caracteres)").optional(),
  /** Keyset cursor: the e-mail of the last person already shown. */
  apos: z.string().max(320, "Cursor inválido").optional(),
});

export type ReadingReportFilter = z.infer<typeof readingReportFilterSchema>;

/** The query string's fields with the empty ones left out (a form sends every field). */
export function reportQuery(params: URLSearchParams, ignore: readonly string[] = []): Record<string, string> {
  return Object.fromEntries([...params].filter(([key, value]) => value !== "" && !ignore.includes(key)));
}

/** One role's share of a page's readers (a person holding two roles counts in both). */
export interface RoleTally {
  perfil: string;
  rotulo: string;
  publico: number;
  confirmadas: number;
}

/** One required page and version: who must read it (may open it) and how many confirmed. */
export interface PageTally {
  pagina: string;
  titulo: string;
  versao: number;
  /** The page's current version (`versao` may be an older one). */
  versaoAtual: number;
  publico: number;
  confirmadas: number;
  pendentes: number;
  /** Confirmed share, 0–100 with one decimal; 100 when nobody must read it. */
  percentual: number;
  perfis: RoleTally[];
  /** When the tally was counted (ms since the epoch): totals may be up to five minutes old, the list is not. */
  calculadoEm: number;
}

/** A person in the list of one page and version. */
export interface ReportPerson {
  id: string;
  nome: string;
  email: string;
  perfis: string[];
  /** The newest version of this page they confirmed, or null. */
  confirmada: number | null;
  confirmadaEm: number | null;
  /** Not yet confirmed the version asked for. */
  pendente: boolean;
}

export interface ReadingReport {
  /** Every required page the viewer may open, at its current version. */
  paginas: PageTally[];
  /** The page and version the list is about (null: no required page open to the viewer). */
  selecionada: PageTally | null;
  /** Versions of the selected page, oldest first. */
  versoes: number[];
  /** Roles that may be filtered on. */
  perfis: { nome: string; rotulo: string }[];
  pessoas: ReportPerson[];
  /** Cursor of the next page of people, or null at the end. */
  proximo: string | null;
  fuso: string;
}

/** One person's pending pages (only those the viewer may open). */
export interface PersonReading {
  id: string;
  nome: string;
  email: string;
  pendentes: { pagina: string; titulo: string; versao: number; resumo: string; confirmada: number | null }[];
  /** How many of the listed pages they have confirmed. */
  confirmadas: number;
}

/** Confirmed share with one decimal (nobody to read it: 100). */
export function percentOf(confirmed: number, total: number): number {
  return total === 0 ? 100 : Math.round((confirmed / total) * 1000) / 10;
}
