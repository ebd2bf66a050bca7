import { roleLabel } from "../../../lib/admin/role-labels";

const SYSTEM_ROLES = new Set(["admin", "lider", "visualizador", "security"]);

/** A role's chip: system roles in the brand colour, custom roles in green. */
export function RoleBadge({ role }: { role: string }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${SYSTEM_ROLES.has(role) ? "bg-brand-100 text-brand-700" : "bg-emerald-100 text-emerald-800"}`}
    >
      {roleLabel(role)}
    </span>
  );
}
