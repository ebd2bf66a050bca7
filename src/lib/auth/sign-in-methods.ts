/**
 * Which ways in /auth offers is deployment configuration, not a per-visitor variant: the page is
 * prerendered with every block between markers, and the server keeps or drops them once, when it
 * loads the page, so no visitor ever receives a form that the portal would refuse.
 */
export type SignInBlock = "sso" | "sso-label" | "password" | "no-password";

export const marker = {
  open: (block: SignInBlock) => `<!--b1:signin:${block}-->`,
  close: (block: SignInBlock) => `<!--b1:/signin:${block}-->`,
};

export interface SignInMethods {
  /** Label of the corporate sign-in button; null when SSO is not configured. */
  ssoLabel: string | null;
  /** E-mail + password form. */
  password: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function replaceBlocks(html: string, block: SignInBlock, replace: (inner: string) => string): string {
  const open = marker.open(block);
  const close = marker.close(block);
  let out = "";
  let index = 0;
  for (let start = html.indexOf(open); start !== -1; start = html.indexOf(open, index)) {
    const end = html.indexOf(close, start + open.length);
    if (end === -1) break;
    out += html.slice(index, start) + replace(html.slice(start + open.length, end));
    index = end + close.length;
  }
  return out + html.slice(index);
}

/** The page as this deployment serves it. */
export function applySignInMethods(html: string, methods: SignInMethods): string {
  const keep = (inner: string) => inner;
  const drop = () => "";
  let out = replaceBlocks(html, "password", methods.password ? keep : drop);
  out = replaceBlocks(out, "no-password", methods.password ? drop : keep);
  out = replaceBlocks(out, "sso-label", () => escapeHtml(methods.ssoLabel ?? ""));
  return replaceBlocks(out, "sso", methods.ssoLabel === null ? drop : keep);
}
