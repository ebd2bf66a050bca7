/** Corporate sign-in texts shared by the server (defaults) and the /auth page script (errors). */

export const DEFAULT_SSO_BUTTON_LABEL = "Entrar com a conta corporativa";

/** Why a corporate sign-in ended back on /auth; the callback puts the code in `?sso_error=`. */
export const SSO_ERROR_MESSAGES = {
  unavailable: "O login corporativo está indisponível no momento. Tente novamente em alguns minutos.",
  state: "O login corporativo expirou ou não foi iniciado neste navegador. Tente novamente.",
  provider: "O provedor de identidade não concluiu o login. Tente novamente ou fale com o administrador.",
  domain: "Sua conta corporativa usa um e-mail de domínio não autorizado. Entre em contato com o administrador se necessário.",
  email: "Sua conta corporativa não tem um e-mail verificado. Fale com o administrador.",
  email_invalid: "O e-mail da sua conta corporativa não é um endereço aceito pelo portal. Fale com o administrador.",
  name_invalid:
    "O nome da sua conta corporativa tem caracteres invisíveis ou de controle, ou tamanho fora de 2 a 120 caracteres. Fale com o administrador.",
  conflict:
    "Este e-mail já está vinculado a outra conta corporativa no portal. Por segurança, o login não foi feito; fale com o administrador.",
  deactivated: "Sua conta no portal foi desativada pelo diretório da empresa. Fale com o administrador.",
  rate: "Muitas tentativas. Aguarde alguns minutos e tente novamente.",
} as const;

export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

/** The message for a `sso_error` query value; unknown codes get the provider message. */
export function ssoErrorMessage(code: string): string {
  return (SSO_ERROR_MESSAGES as Record<string, string>)[code] ?? SSO_ERROR_MESSAGES.provider;
}
