import { SYSTEM_ROLES } from "../../routes.ts";

/**
 * Stops the start on a role name that is not a system role: a typo (`admn`) would otherwise
 * leave the setting silently without effect. Custom roles live in the database, which is opened
 * after the configuration is read, so the configuration names system roles only.
 */
export function requireSystemRoles(setting: string, names: Iterable<string>): void {
  const known: readonly string[] = SYSTEM_ROLES;
  const unknown = [...new Set(names)].filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? "perfil desconhecido" : "perfis desconhecidos";
  throw new Error(
    `${setting}: ${what} ${unknown.map((name) => JSON.stringify(name)).join(", ")}. ` +
      `Perfis válidos: ${SYSTEM_ROLES.join(", ")} (perfis criados no painel não valem na configuração).`,
  );
}
