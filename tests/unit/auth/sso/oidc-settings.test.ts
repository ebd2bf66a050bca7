import { describe, expect, it } from "vitest";
import { readConfig } from "../../../../src/lib/server/config/config";
import { mapRoleClaim } from "../../../../src/lib/server/auth/sso/roles";
import { isLoopbackHttp } from "../../../../src/lib/server/auth/sso/client";
import { parseRoleMap } from "../../../../src/lib/server/config/oidc";
import { applySignInMethods, marker } from "../../../../src/lib/auth/sign-in-methods";
import { ssoErrorMessage, SSO_ERROR_MESSAGES } from "../../../../src/lib/auth/sso-messages";

describe("SSO settings", () => {
  it("is off without issuer and client id, and password sign-in stays on by default", () => {
    expect(readConfig({}).oidc).toBeNull();
    expect(readConfig({ OIDC_ISSUER: "https://idp.example.com" }).oidc).toBeNull();
    expect(readConfig({}).passwordAuth).toBe(true);
    expect(readConfig({ AUTH_PASSWORD: "false" }).passwordAuth).toBe(false);
  });

  it("reads the label, the role claim (default groups) and the logout switch", () => {
    const oidc = readConfig({ OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "portal", OIDC_LOGOUT: "true" }).oidc!;
    expect(oidc).toMatchObject({ buttonLabel: "Entrar com a conta corporativa", roleClaim: "groups", logout: true, clientSecret: "" });
  });

  it("parses OIDC_ROLE_MAP: several roles per value, role names lower-cased, malformed pairs skipped", () => {
    const map = parseRoleMap("grupo-ti:admin, lideres:lider,grupo-ti:Security,semdois, :admin,x:,urn:grupo:ti:lider");
    expect(Object.fromEntries(map)).toEqual({ "grupo-ti": ["admin", "security"], lideres: ["lider"], "urn:grupo:ti": ["lider"] });
  });

  it("maps an array or a single string claim; values are case-sensitive and unknown ones ignored", () => {
    const map = parseRoleMap("grupo-ti:admin,lideres:lider");
    expect(mapRoleClaim(["lideres", "grupo-ti", "outro"], map)).toEqual(["admin", "lider"]);
    expect(mapRoleClaim("lideres", map)).toEqual(["lider"]);
    expect(mapRoleClaim(["GRUPO-TI"], map)).toEqual([]);
    expect(mapRoleClaim(undefined, map)).toEqual([]);
    expect(mapRoleClaim([{ group: "grupo-ti" }], map)).toEqual([]);
  });

  it("accepts plain http only for a provider on loopback", () => {
    expect(isLoopbackHttp(new URL("http://127.0.0.1:8080/realms/b1"))).toBe(true);
    expect(isLoopbackHttp(new URL("http://localhost/"))).toBe(true);
    expect(isLoopbackHttp(new URL("http://idp.example.com/"))).toBe(false);
    expect(isLoopbackHttp(new URL("https://idp.example.com/"))).toBe(false);
  });

  it("falls back to the provider message for an unknown error code", () => {
    expect(ssoErrorMessage("state")).toBe(SSO_ERROR_MESSAGES.state);
    expect(ssoErrorMessage("<script>")).toBe(SSO_ERROR_MESSAGES.provider);
  });
});

describe("sign-in methods on the prerendered /auth", () => {
  const page = [
    marker.open("sso"),
    "<a>",
    marker.open("sso-label"),
    "Padrão",
    marker.close("sso-label"),
    "</a>",
    marker.open("no-password"),
    "<h1>só SSO</h1>",
    marker.close("no-password"),
    marker.open("password"),
    "<p>ou</p>",
    marker.close("password"),
    marker.close("sso"),
    marker.open("password"),
    "<form>senha</form>",
    marker.close("password"),
  ].join("");

  it("without SSO serves only the password form", () => {
    expect(applySignInMethods(page, { ssoLabel: null, password: true })).toBe("<form>senha</form>");
  });

  it("with both serves the button with the escaped label, the divider and the form", () => {
    expect(applySignInMethods(page, { ssoLabel: 'Entrar "B1" & <Cia>', password: true })).toBe(
      "<a>Entrar &#34;B1&#34; &#38; &#60;Cia&#62;</a><p>ou</p><form>senha</form>",
    );
  });

  it("with AUTH_PASSWORD=false serves the button and the heading only", () => {
    expect(applySignInMethods(page, { ssoLabel: "Entrar", password: false })).toBe("<a>Entrar</a><h1>só SSO</h1>");
  });
});
