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
 * The roles tab's 'Páginas': 'Todas' when the role opens every restricted page of the checklist
 * (granted or fixed by the route table; the rest is open to everyone signed in), else how many
 * pages its permissions grant.
 */
export function rolePagesLabel(role: Pick<RoleSummary, "pages" | "lockedPages">, checklist: readonly ChecklistPage[]): string {
  const opened = new Set([...role.pages, ...role.lockedPages]);
  const restricted = checklist.filter((page) => page.kind === "grantable");
  if (restricted.length > 0 && restricted.every((page) => opened.has(page.path))) return "Todas";
  return String(role.pages.length);
}
