/**
 * What a browser does between the portal and the test provider, over plain HTTP: follows
 * redirects by hand, keeps each side's cookies, and fills the provider's login form.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function send(url: string, jar: CookieJar, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header() } });
  jar.store(response);
  return response;
}

export interface ProviderRoundTrip {
  /** The provider's redirect back to the portal (code + state), not yet followed. */
  callbackUrl: string;
  /** The portal's cookies so far (the state cookie). */
  portal: CookieJar;
}

/**
 * Clicks 'Entrar com a conta corporativa', signs in at the provider as `login`, stops at the redirect
 * back (to `publicUrl`, the portal's PUBLIC_URL, when it is not the address the test reaches it on).
 */
export async function signInAtProvider(portalUrl: string, login: string, next = "/", publicUrl = portalUrl): Promise<ProviderRoundTrip> {
  const portal = new CookieJar();
  const provider = new CookieJar();
  const start = await send(`${portalUrl}/api/auth/oidc/login?next=${encodeURIComponent(next)}`, portal);
  if (start.status !== 302) throw new Error(`início do login: ${start.status}`);
  let location = start.headers.get("location")!;
  for (let hop = 0; hop < 10; hop++) {
    if (location.startsWith(publicUrl)) return { callbackUrl: portalUrl + location.slice(publicUrl.length), portal };
    const response = await send(location, provider);
    if (response.status === 200) {
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`página do provedor sem formulário:\n${html.slice(0, 500)}`);
      const body = new URLSearchParams({ prompt: "login", login, password: "qualquer" });
      const submitted = await send(new URL(action.replace(/&amp;/g, "&"), location).href, provider, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      location = new URL(submitted.headers.get("location")!, location).href;
      continue;
    }
    if (response.status < 300 || response.status >= 400) throw new Error(`provedor respondeu ${response.status}: ${await response.text()}`);
    location = new URL(response.headers.get("location")!, location).href;
  }
  throw new Error("redirecionamentos demais no provedor");
}

/** Follows the provider's redirect back into the portal with the portal's cookies. */
export function returnToPortal(roundTrip: ProviderRoundTrip, url = roundTrip.callbackUrl): Promise<Response> {
  return send(url, roundTrip.portal);
}
