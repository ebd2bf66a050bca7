/**
 * Page-history settings, read when the site is built (the history and the 'Editar esta página' link
 * are prerendered): EDIT_URL_BASE (CONTENT_EDIT_URL, its older name, still works), EDIT_ROLES and
 * HISTORY_HIDE_AUTHORS. A value that cannot work stops the build with a Portuguese line.
 */
import { SYSTEM_ROLES, type SystemRole } from "../../routes.ts";
import { readSettings } from "../../settings.ts";

export interface PageHistorySettings {
  /** Folder of the repository's web editor; the file's path is appended. Empty: no edit link. */
  editUrlBase: string;
  /** System roles that see 'Editar esta página'. */
  editRoles: readonly SystemRole[];
  /** HISTORY_HIDE_AUTHORS=true: versions show no editor's name. */
  hideAuthors: boolean;
}

const DEFAULT_EDIT_ROLES: readonly SystemRole[] = ["admin", "lider"];

export function readPageHistorySettings(env: Readonly<Record<string, string | undefined>> = readSettings()): PageHistorySettings {
  const base = (env.EDIT_URL_BASE ?? env.CONTENT_EDIT_URL ?? "").trim();
  // Printable ASCII only (an IRI's letters percent-encoded): no control, bidi or look-alike character reaches the link.
  if (base && (base.length > 2000 || !/^https:\/\/[\x21-\x7e]+$/.test(base) || /["'<>\\`]/.test(base))) {
    throw new Error(
      `EDIT_URL_BASE deve ser um endereço https:// de até 2000 caracteres, sem espaços, aspas nem caracteres fora do ASCII (recebido: "${base.slice(0, 80)}")`,
    );
  }
  const roles = (env.EDIT_ROLES ?? "")
    .split(",")
    .map((role) => role.trim())
    .filter(Boolean);
  const unknown = roles.find((role) => !(SYSTEM_ROLES as readonly string[]).includes(role));
  if (unknown !== undefined) {
    throw new Error(`EDIT_ROLES aceita só papéis do sistema (${SYSTEM_ROLES.join(", ")}); recebido: "${unknown.slice(0, 40)}"`);
  }
  const hide = (env.HISTORY_HIDE_AUTHORS ?? "").trim().toLowerCase();
  if (!["", "0", "1", "true", "false"].includes(hide)) {
    throw new Error(`HISTORY_HIDE_AUTHORS deve ser true ou false (recebido: "${hide.slice(0, 40)}")`);
  }
  return {
    editUrlBase: base,
    editRoles: roles.length ? (roles as SystemRole[]) : DEFAULT_EDIT_ROLES,
    hideAuthors: hide === "1" || hide === "true",
  };
}
