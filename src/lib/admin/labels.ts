import { roleLabel } from "./role-labels.ts";
import type { ChecklistPage, RoleSummary } from "./types.ts";

export { roleLabel };

export interface UserRow {
  id: string;
  email: string;
  fullName: string;
  roles: string[];
  createdAt: number;
  /** The company directory (SCIM) manages this account: its name and e-mail are read-only in the panel. */
  directoryManaged?: boolean;
  /** The directory deactivated the account: shown as 'Desativado', it cannot sign in. */
  deactivated?: boolean;
}

// Building an Intl.DateTimeFormat costs ~100 µs: one per zone, reused (CSV exports format millions).
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** dd/MM/yyyy HH:mm:ss in the portal's time zone. */
export function formatDateTime(ms: number, timeZone: string): string {
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("pt-BR", {
      timeZone,
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    dateTimeFormats.set(timeZone, format);
  }
  // pt-BR renders "dd/MM/yyyy, HH:mm:ss" (older ICU without the comma); format() is ~5x faster than formatToParts().
  return format.format(ms).replace(", ", " ");
}

/** Details column: JSON text cut to `max` characters with an ellipsis. */
export function truncateDetails(details: string | null, max = 80): string {
  if (!details) return "-";
  return details.length > max ? `${details.slice(0, max - 1)}…` : details;
}

/** Details JSON indented two spaces for reading; text that is not JSON is shown as it is. */
export function prettyDetails(details: string): string {
  try {
    return JSON.stringify(JSON.parse(details), null, 2);
  } catch {
    return details;
  }
}

/**
 * The roles tab's 'Páginas': 'Todas' when someone holding only the role opens every page of the
 * checklist, else how many of them they open (Visualizador: the content pages; restrictions count).
 */
export function rolePagesLabel(role: Pick<RoleSummary, "openPageCount">, checklist: readonly ChecklistPage[]): string {
  return checklist.length > 0 && role.openPageCount >= checklist.length ? "Todas" : String(role.openPageCount);
}

/** Who opens a page, in words: the chosen roles, or everyone signed in (`null`). */
export function audienceText(roles: readonly string[] | null): string {
  return roles === null ? "Todos os usuários conectados" : roles.map(roleLabel).join(", ");
}

/** 'A, B ou C' in Portuguese. */
function listInWords(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} ou ${items.at(-1)}` : (items[0] ?? "");
}

/**
 * The readable line beside an access row's details: the role that opened the page
 * ('Liberado por: Líder') or the roles a denied page needs ('Exige: Líder ou Administrador');
 * null for other rows and for rows written before the roles were recorded.
 */
export function accessDecisionNote(actionType: string, details: string | null): string | null {
  if (!details || (actionType !== "page_access_granted" && actionType !== "page_access_denied")) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return null;
  }
  const key = actionType === "page_access_granted" ? "grantedBy" : "requiredRoles";
  const names = (parsed as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) return null;
  const labels = names.map(roleLabel);
  if (key === "grantedBy") return labels.length ? `Liberado por: ${labels.join(", ")}` : null;
  return labels.length ? `Exige: ${listInWords(labels)}` : "Exige: nenhum perfil a libera";
}
