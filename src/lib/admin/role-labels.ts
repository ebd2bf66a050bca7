/** Portuguese names of the system roles on badges; other roles are shown as they are. */
const ROLE_LABELS: Record<string, string> = {
  admin: "Administrador",
  lider: "Líder",
  visualizador: "Visualizador",
  security: "Segurança",
};

export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}
