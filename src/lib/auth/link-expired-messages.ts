/** /link-expired: its own messages. Kept apart from auth-schemas.ts so the page's island ships without zod. */
export const LINK_EXPIRED_MESSAGES = {
  required: "Campo obrigatório",
  requiredHint: "Digite seu e-mail para receber um novo link.",
  unauthorized: "E-mail não autorizado",
  unauthorizedHint: "Use um e-mail corporativo válido.",
} as const;
