/** The Insights page (/insights): its filter (kept in the address) and what the server answers. */
import { z } from "zod";
import { PERIODS, ROLE_FILTERS } from "./labels.ts";

export { PERIODS, ROLE_FILTERS, roleFilterLabel } from "./labels.ts";

export const INSIGHTS_PATH = "/insights";
export const insightsFilterSchema = z.strictObject(
  {
    periodo: z.enum(PERIODS, { error: "Período inválido: use 7, 30, 90 ou 365 dias." }).default("30"),
    perfil: z.enum(ROLE_FILTERS, { error: "Perfil inválido." }).default("*"),
    pagina: z.string().max(300, "Página inválida.").optional(),
  },
  { error: "Filtro não reconhecido." },
);
export type InsightsFilter = z.infer<typeof insightsFilterSchema>;

export const TABLES = [
  "paginas",
  "serie",
  "leitores",
  "perfis",
  "comentarios",
  "sem-leitura",
  "buscas",
  "sem-resultado",
  "sem-abertura",
] as const;
export type InsightsTable = (typeof TABLES)[number];

export interface PageRow {
  pagina: string;
  titulo: string;
  leituras: number;
  /** Distinct readers in the last complete ISO week, `semanaCompleta` (estimate). */
  leitoresSemana: number;
  /** Distinct readers in the current ISO week so far, `semanaAtual` (estimate). */
  leitoresSemanaAtual: number;
  sim: number;
  nao: number;
}
export interface SearchRow {
  consulta: string;
  buscas: number;
  semResultado: number;
  aberturas: number;
}
export interface CommentRow {
  id: string;
  pagina: string;
  titulo: string;
  versao: string;
  dia: string;
  ajudou: boolean;
  motivo: string | null;
  comentario: string;
  /** Only when the person ticked 'Pode me contatar sobre isto'. */
  contato: { nome: string; email: string } | null;
  status: string;
}

export interface InsightsReport {
  filtro: { periodo: string; perfil: string; pagina: string | null };
  desde: string;
  ate: string;
  /** The last complete ISO week (e.g. 2026-W49). */
  semanaCompleta: string;
  /** The current ISO week, counted so far. */
  semanaAtual: string;
  paginas: PageRow[];
  serie: { dia: string; leituras: number }[];
  leitores: { semana: string; leitores: number }[];
  perfis: { perfil: string; rotulo: string; leituras: number }[];
  comentarios: CommentRow[];
  semLeitura: { pagina: string; titulo: string; ultimaLeitura: string | null }[];
  buscas: SearchRow[];
  semResultado: SearchRow[];
  semAbertura: SearchRow[];
}
