/** Shapes of the admin API shared by the server (src/lib/server/admin/roles.ts) and the panel island. */

export interface RoleSummary {
  id: number;
  name: string;
  description: string;
  isSystem: boolean;
  userCount: number;
  /** Paths granted by this role's page permissions. */
  pages: string[];
  /** Paths the route table itself gives this role (locked in the checklist). */
  lockedPages: string[];
  /** 'Acesso limitado': holders whose roles are all limited open only the pages their roles grant. */
  accessLimited: boolean;
  /** How many pages of the checklist someone holding only this role opens (restrictions included). */
  openPageCount: number;
}

/** A page whose audience the panel may set ('Quem pode abrir esta página'). */
export interface PageAccessEntry {
  path: string;
  name: string;
  group: "conteudo" | "restritas" | "administracao";
  /** The route table's or frontmatter's roles; `null`: everyone signed in. */
  defaultRoles: string[] | null;
  /** The roles chosen in the panel, or `null` while the default applies. */
  roles: string[] | null;
  /** Sent back with a change: a page changed meanwhile refuses it (409). */
  version: number;
}

export interface ChecklistPage {
  id: number;
  name: string;
  path: string;
  /**
   * `grantable`: a checkbox; `signed-in`: open to everyone signed in (shown checked, disabled; a checkbox
   * for a limited role); `fixed`: only the route table's roles (Administração), never granted.
   */
  kind: "grantable" | "signed-in" | "fixed";
  /** Conteúdo, Restritas or Administração. */
  group: "conteudo" | "restritas" | "administracao";
  /** Who opens it now, in words ('Todos os conectados', 'lider, admin', 'Restrita no painel: …'). */
  audience: string;
  /** Restricted in the panel: the role's checkbox has no effect there (shown disabled). */
  restricted: boolean;
}

/** One page of the admin user list (GET /api/admin/users). */
export interface UserListPage {
  users: {
    id: string;
    email: string;
    fullName: string;
    createdAt: number;
    roles: string[];
    directoryManaged: boolean;
    deactivated: boolean;
    /** `enrolled`: a confirmed second factor on file; `required`: one of the user's roles must present it. */
    twoFactor: { enrolled: boolean; required: boolean };
  }[];
  /** Whether two-factor is configured (TWO_FACTOR_KEY): without it nothing is required and nothing can be reset. */
  twoFactorOn: boolean;
  /** Users matching the search and the role filter. */
  total: number;
  page: number;
  pages: number;
  perPage: number;
  /** Users matching the search: in all, and per role name. */
  counts: { all: number; byRole: Record<string, number> };
}

/** GET /api/admin/users: a page, and whether the company directory (SCIM) is on, so accounts can be linked to it. */
export interface UserListAnswer extends UserListPage {
  directoryOn: boolean;
}

/** One audit streaming destination as /api/admin/integracoes reports it (the "Integrações" tab). */
export interface IntegrationView {
  name: "webhook" | "syslog";
  target: string;
  /** The environment variable that sets it (read-only in the panel), or null when the panel set it. */
  lockedBy: string | null;
  /** Until when the secret before the last rotation still signs (ms), or null. */
  previousSecretUntil: number | null;
  deliveredId: number;
  deliveredAt: number | null;
  headId: number;
  lagEvents: number;
  lagSeconds: number;
  paused: boolean;
  stoppedReason: string | null;
  lastError: string | null;
  lastErrorAt: number | null;
  /** Whether some instance holds the lease now (someone is delivering). */
  delivering: boolean;
}
