/**
 * The Insights names and labels the browser needs (filters, reasons, comment statuses), without the
 * validation schemas: an island importing report.ts or feedback.ts would bring zod into the page.
 */
export const PERIODS = ["7", "30", "90", "365"] as const;
export const ROLE_FILTERS = ["*", "admin", "lider", "visualizador", "security", "sem-perfil"] as const;
export const roleFilterLabel = (role: string) =>
  ({
    "*": "Todos os perfis",
    admin: "Administrador",
    lider: "Líder",
    visualizador: "Visualizador",
    security: "Segurança",
    "sem-perfil": "Sem perfil",
  })[role] ?? role;

export const FEEDBACK_REASONS = [
  { value: "desatualizada", label: "Desatualizada" },
  { value: "confusa", label: "Confusa" },
  { value: "falta-informacao", label: "Falta informação" },
  { value: "outro", label: "Outro" },
] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number]["value"];

export const COMMENT_STATUSES = [
  { value: "nova", label: "Nova" },
  { value: "em-analise", label: "Em análise" },
  { value: "resolvida", label: "Resolvida" },
] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number]["value"];

export const reasonLabel = (value: string | null) => FEEDBACK_REASONS.find((reason) => reason.value === value)?.label ?? "";
export const statusLabel = (value: string) => COMMENT_STATUSES.find((status) => status.value === value)?.label ?? value;
