import type { RunningServer } from "./server";

/** A SCIM token long enough for the start-up check (≥ 32 characters). */
export const SCIM_TOKEN = "scim-teste-0123456789abcdef0123456789abcdef";

export interface ScimResponse {
  status: number;
  contentType: string | null;
  location: string | null;
  etag: string | null;
  body: Record<string, any> | null;
}

/** Calls the SCIM service as a directory does: bearer token, `application/scim+json`, no cookie, no Origin. */
export async function scim(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = SCIM_TOKEN,
  extraHeaders: Record<string, string> = {},
): Promise<ScimResponse> {
  const headers: Record<string, string> = { accept: "application/scim+json", ...extraHeaders };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/scim+json; charset=utf-8";
  const response = await fetch(`${server.url}/scim/v2${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    location: response.headers.get("location"),
    etag: response.headers.get("etag"),
    body: text ? (JSON.parse(text) as Record<string, any>) : null,
  };
}

/**
 * An administrator hands an account made in the portal (password, hand-given role) to the
 * directory through the panel, as the directory may not adopt it on its own; fails loudly otherwise.
 */
export async function linkToDirectory(server: RunningServer, userId: string): Promise<void> {
  const { createTestUser } = await import("./users");
  const { createSession } = await import("../../src/lib/server/sessions/session");
  const admin = await createTestUser(server.db, ["admin"], "admin-vinculo");
  // A two-factor session: the panel opens to it whether or not TWO_FACTOR_KEY asks admins for one.
  const { token } = await createSession(server.db, admin.id, { authMethod: "two_factor" });
  const response = await fetch(`${server.url}/api/admin/users/${userId}/directory`, {
    method: "POST",
    headers: { cookie: `b1_session=${token}`, origin: server.url, "content-type": "application/json" },
  });
  if (response.status !== 200) throw new Error(`vincular ao diretório: ${response.status} ${await response.text()}`);
}
