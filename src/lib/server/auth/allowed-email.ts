import { config } from "../config/config.ts";

export const DOMAIN_MESSAGE = "E-mail deve ser de um domínio autorizado. Entre em contato com o administrador se necessário.";

type AllowList = { allowedDomains: readonly string[]; allowedEmails: readonly string[] };

/** Nothing configured: nobody may sign up or sign in until AUTH_ALLOWED_DOMAINS or AUTH_ALLOWED_EMAILS is set. */
export function isAllowListEmpty(rule: AllowList = config()): boolean {
  return rule.allowedDomains.length === 0 && rule.allowedEmails.length === 0;
}

/**
 * The authorised-address rule: the part after the last "@" equals one configured domain
 * exactly (no subdomains, no look-alikes), or the whole address is individually allowed.
 */
export function isAllowedEmail(email: string, rule: AllowList = config()): boolean {
  const address = email.trim().toLowerCase();
  if (rule.allowedEmails.includes(address)) return true;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at !== address.indexOf("@")) return false;
  const domain = address.slice(at + 1);
  return rule.allowedDomains.includes(domain);
}
