export type { UserRow } from "../../../lib/admin/labels";
export type { ChecklistPage, RoleSummary as RoleRow } from "../../../lib/admin/types";
