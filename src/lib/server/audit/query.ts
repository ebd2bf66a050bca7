import "../platform/zod-locale.ts";
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { auditLogs, users } from "../../../../db/schema/index.ts";
import type { AuditResult } from "../../audit/actions.ts";
import { isDateBound, parseDateBound } from "../../audit/date-bound.ts";
import { inJsonList, userTextMatches, withoutIndex } from "../data/dialect.ts";
import { normalizeForSearch } from "../../search/text.ts";
import type { Db } from "../data/db.ts";

const DATE_MESSAGE = "Data inválida: use o formato AAAA-MM-DD.";

const dateBoundField = z
  .string()
  .max(40, DATE_MESSAGE)
  .refine((value) => isDateBound(value), DATE_MESSAGE)
  .optional();

/** Free text of a filter: PostgreSQL refuses a NUL character in text (a 500 before), SQLite would search for it. */
const filterText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes("\u0000"), "Filtro inválido: caractere não permitido.");

/** Filters of the audit viewer (query string), all optional. */
export const auditFilterSchema = z.object({
  action: filterText(60).optional(),
  result: z.enum(["success", "failure", "blocked"]).optional(),
  /** Substring of the user's e-mail or name. */
  user: filterText(120).optional(),
  /** Inclusive bounds: yyyy-mm-dd or a datetime, read in TZ_DISPLAY unless it carries an offset. */
  from: dateBoundField,
  to: dateBoundField,
  /** Keyset cursor `<created_at>_<id>` of the last row already shown. */
  cursor: z
    .string()
    .regex(/^\d+_\d+$/, "Cursor inválido")
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export interface AuditRow {
  id: number;
  createdAt: number;
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  actionType: string;
  result: AuditResult;
  actionDetails: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

/** Above this many matching users, a scan in time order beats one index range per user. */
const PER_USER_RANGES_MAX = 200;

/** A row as the viewer shows it, with its author's e-mail and name (left join on users): also what audit streaming delivers. */
export const auditRowColumns = {
  id: auditLogs.id,
  createdAt: auditLogs.createdAt,
  userId: auditLogs.userId,
  userEmail: users.email,
  userName: users.fullName,
  actionType: auditLogs.actionType,
  result: auditLogs.result,
  actionDetails: auditLogs.actionDetails,
  ipAddress: auditLogs.ipAddress,
  userAgent: auditLogs.userAgent,
};

/** Ids of the users whose e-mail or name contains `needle` (case- and accent-insensitive): an index read (userTextMatches). */
async function matchingUserIds(db: Db, needle: string): Promise<string[]> {
  const folded = normalizeForSearch(needle.trim());
  return (await db.select({ id: users.id }).from(users).where(userTextMatches(folded))).map((user) => user.id);
}

/**
 * Newest first, keyset-paged on (created_at, id): each filter has an index ending in that order,
 * so a page is one index range read, never a sort of the whole table. The user filter is
 * resolved to user ids first.
 */
export async function queryAuditLogs(
  db: Db,
  filter: AuditFilter,
  timeZone: string,
): Promise<{ rows: AuditRow[]; nextCursor: string | null }> {
  const conditions: SQL[] = [];
  const ids = filter.user?.trim() ? await matchingUserIds(db, filter.user) : undefined;
  if (ids?.length === 0) return { rows: [], nextCursor: null };
  const perUser = ids !== undefined && ids.length <= PER_USER_RANGES_MAX;
  // A unary + keeps a term off the indexes, so SQLite reads the range we know is narrowest:
  // the few users' own ranges, or the time-ordered index for a filter matching many users.
  if (filter.action)
    conditions.push(perUser ? sql`${withoutIndex(auditLogs.actionType)} = ${filter.action}` : eq(auditLogs.actionType, filter.action));
  if (filter.result)
    conditions.push(perUser ? sql`${withoutIndex(auditLogs.result)} = ${filter.result}` : eq(auditLogs.result, filter.result));
  if (ids) conditions.push(inJsonList(perUser ? auditLogs.userId : withoutIndex(auditLogs.userId), ids));
  const from = filter.from ? parseDateBound(filter.from, timeZone, "start") : undefined;
  const to = filter.to ? parseDateBound(filter.to, timeZone, "end") : undefined;
  if (from !== undefined) conditions.push(gte(auditLogs.createdAt, from));
  if (to !== undefined) conditions.push(lte(auditLogs.createdAt, to));
  if (filter.cursor) {
    const [createdAt, id] = filter.cursor.split("_").map(Number) as [number, number];
    // A row-value comparison is one index range; the OR form is not.
    conditions.push(sql`(${auditLogs.createdAt}, ${auditLogs.id}) < (${createdAt}, ${id})`);
  }
  const rows = await db
    .select(auditRowColumns)
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(filter.limit + 1);
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > filter.limit && last ? `${last.createdAt}_${last.id}` : null };
}

/** Details of a row the company directory wrote begin so (the provisioning domain puts `actor` first). */
const DIRECTORY_DETAILS_START = '{"actor":"directory"';

/**
 * How the viewer names a row's user (spec: 'Sistema' without user, 'Usuário sem nome' without a
 * name); a change the company directory made over SCIM shows as the directory's.
 */
export function auditUserLabel(row: Pick<AuditRow, "userId" | "userName" | "userEmail"> & { actionDetails?: string | null }): string {
  if (!row.userId) return row.actionDetails?.startsWith(DIRECTORY_DETAILS_START) ? "Diretório da empresa (SCIM)" : "Sistema";
  if (!row.userEmail) return "Usuário excluído";
  return row.userName || "Usuário sem nome";
}
