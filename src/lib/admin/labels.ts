import { roleLabel } from "./role-labels.ts";

export { roleLabel };

export interface UserRow {
  id: string;
  email: string;
  fullName: string;
  roles: string[];
  createdAt: number;
}

/** dd/MM/yyyy HH:mm:ss in the portal's time zone. */
export function formatDateTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("pt-BR", {
    timeZone,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("day")}/${get("month")}/${get("year")} ${get("hour")}:${get("minute")}:${get("second")}`;
}

/** Details column: JSON text cut to `max` characters with an ellipsis. */
export function truncateDetails(details: string | null, max = 80): string {
  if (!details) return "-";
  return details.length > max ? `${details.slice(0, max - 1)}…` : details;
}
