/** Shapes of the admin API shared by the server (src/lib/server/roles.ts) and the panel island. */

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
