import { config } from "../../config/config.ts";
import { jsonResponse } from "../../http/http.ts";

export const PASSWORD_AUTH_DISABLED_MESSAGE = "O login com e-mail e senha está desativado neste portal. Use o login corporativo.";

/** With `AUTH_PASSWORD=false` the password endpoints answer 403 before reading anything (the CLI still creates accounts). */
export function refuseWhenPasswordAuthDisabled(): Response | null {
  if (config().passwordAuth) return null;
  return jsonResponse(403, { error: PASSWORD_AUTH_DISABLED_MESSAGE, code: "password_auth_disabled" });
}
