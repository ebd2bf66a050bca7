import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";
import { isAcceptedScimToken } from "../../../src/lib/server/provisioning/bearer-token";

const TOKEN = "a".repeat(31) + "b";

describe("SCIM_TOKEN", () => {
  it("unset: SCIM is off", () => {
    expect(readConfig({}).scim).toBeNull();
    expect(readConfig({ SCIM_TOKEN: "  " }).scim).toBeNull();
  });

  it("shorter than 32 characters stops the start with a Portuguese message", () => {
    expect(() => readConfig({ SCIM_TOKEN: "curto-demais-0123456789abcdef" })).toThrow(/SCIM_TOKEN deve ter pelo menos 32 caracteres/);
  });

  it("is kept only as a hash, and only the exact bearer token is accepted", () => {
    const settings = readConfig({ SCIM_TOKEN: TOKEN }).scim!;
    expect(JSON.stringify([...Object.values(settings)].map(String))).not.toContain(TOKEN);
    expect(isAcceptedScimToken(settings, `Bearer ${TOKEN}`)).toBe(true);
    expect(isAcceptedScimToken(settings, `bearer ${TOKEN}`)).toBe(true);
    expect(isAcceptedScimToken(settings, `Bearer ${TOKEN}x`)).toBe(false);
    expect(isAcceptedScimToken(settings, `Bearer ${TOKEN.slice(1)}`)).toBe(false);
    expect(isAcceptedScimToken(settings, TOKEN)).toBe(false);
    expect(isAcceptedScimToken(settings, undefined)).toBe(false);
  });

  it("a role in OIDC_ROLE_MAP that is no system role stops the start, as for corporate sign-in", () => {
    expect(() => readConfig({ SCIM_TOKEN: TOKEN, OIDC_ROLE_MAP: "grupo:admn" })).toThrow(/OIDC_ROLE_MAP/);
    expect(readConfig({ SCIM_TOKEN: TOKEN, OIDC_ROLE_MAP: "Grupo TI:admin" }).scim!.roleMap.get("Grupo TI")).toEqual(["admin"]);
  });
});
