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
}

export interface ChecklistPage {
  id: number;
  name: string;
  path: string;
  /** `grantable`: a checkbox; `signed-in`: open to everyone signed in (shown checked, disabled). */
  kind: "grantable" | "signed-in";
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
