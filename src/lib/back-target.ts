/** Where 'Voltar' leads: the referring page when it is another page of this portal, else null (the button's default). */
const NOT_A_DESTINATION = /^\/(auth|api|acesso-negado|link-expired|confirmation-sent|signup-error)(\/|$)/;

export function portalReferrer(referrer: string, here: string): string | null {
  if (!referrer) return null;
  let from: URL;
  let current: URL;
  try {
    from = new URL(referrer);
    current = new URL(here);
  } catch {
    return null;
  }
  if (from.origin !== current.origin || from.pathname === current.pathname || NOT_A_DESTINATION.test(from.pathname)) return null;
  return from.pathname + from.search + from.hash;
}
