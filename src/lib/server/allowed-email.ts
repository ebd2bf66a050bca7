import { config } from "./config.ts";

export const DOMAIN_MESSAGE = "E-mail deve ser de um domínio autorizado. Entre em contato com o administrador se necessário.";

/**
 * The authorised-address rule: the part after the last "@" equals one configured domain
 * exactly (no subdomains, no look-alikes), or the whole address is individually allowed.
 */
export function isAllowedEmail(
  email: string,
  rule: { allowedDomains: readonly string[]; allowedEmails: readonly string[] } = config(),
): boolean {
  const address = email.trim().toLowerCase();
  if (rule.allowedEmails.includes(address)) return true;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at !== address.indexOf("@")) return false;
  const domain = address.slice(at + 1);
  return rule.allowedDomains.includes(domain);
}
