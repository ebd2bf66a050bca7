import type { UserRow } from "../../../lib/admin/labels";

export type { UserRow };

export interface RoleRow {
  id: number;
  name: string;
  description: string;
  isSystem: boolean;
  userCount: number;
  pages: string[];
  lockedPages: string[];
}

export interface ChecklistPage {
  id: number;
  name: string;
  path: string;
  kind: "grantable" | "signed-in";
}
