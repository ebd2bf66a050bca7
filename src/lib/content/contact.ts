/** The contact address of the content pages (build time: PUBLIC_CONTACT_EMAIL or CONTACT_EMAIL). */
export const CONTACT_EMAIL: string = import.meta.env.PUBLIC_CONTACT_EMAIL ?? import.meta.env.CONTACT_EMAIL ?? "metodologia@b1.example.com";

/** A mailto: link with an optional subject and body. */
export function mailto(subject?: string, body?: string, to = CONTACT_EMAIL): string {
  const params = new URLSearchParams();
  if (subject) params.set("subject", subject);
  if (body) params.set("body", body);
  const query = params.toString().replace(/\+/g, "%20");
  return `mailto:${to}${query ? `?${query}` : ""}`;
}
