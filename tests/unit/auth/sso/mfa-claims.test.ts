import { describe, expect, it } from "vitest";
import { providerAssertsMfa } from "../../../../src/lib/server/auth/sso/claims";
import { readConfig } from "../../../../src/lib/server/config/config";

const BASE = { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "portal" };
const settingsOf = (env: Record<string, string>) => readConfig({ ...BASE, ...env }).oidc!;

describe("MFA asserted by the provider", () => {
  it("with no setting, no amr or acr counts (both lists are empty by default)", () => {
    const settings = settingsOf({});
    expect(settings.mfaAmrValues).toEqual([]);
    expect(settings.mfaAcrValues).toEqual([]);
    expect(providerAssertsMfa({ amr: ["pwd", "mfa"] }, settings)).toBe(false);
    expect(providerAssertsMfa({ amr: ["otp", "hwk"], acr: "urn:idp:mfa" }, settings)).toBe(false);
  });

  it("counts an amr OIDC_MFA_AMR lists, exactly; a password alone never", () => {
    const settings = settingsOf({ OIDC_MFA_AMR: " mfa , otp,mfa" });
    expect(settings.mfaAmrValues).toEqual(["mfa", "otp"]);
    expect(providerAssertsMfa({ amr: ["pwd", "mfa"] }, settings)).toBe(true);
    expect(providerAssertsMfa({ amr: ["pwd", "otp"] }, settings)).toBe(true);
    expect(providerAssertsMfa({ amr: ["hwk"] }, settings)).toBe(false);
    expect(providerAssertsMfa({ amr: ["pwd", "MFA"] }, settings)).toBe(false);
    expect(providerAssertsMfa({ amr: ["pwd"] }, settings)).toBe(false);
    expect(providerAssertsMfa({ amr: "mfa" }, settings)).toBe(false);
    expect(providerAssertsMfa({ amr: [{ toString: () => "mfa" }] }, settings)).toBe(false);
    expect(providerAssertsMfa({}, settings)).toBe(false);
  });

  it("refuses to start on an OIDC_MFA_AMR value that names no second factor (pwd, kba, a typo, a prototype key)", () => {
    for (const value of ["pwd", "mfa,kba", "mfa,__proto__", "constructor", "mf\u200ba"]) {
      expect(() => settingsOf({ OIDC_MFA_AMR: value })).toThrow(/OIDC_MFA_AMR/);
    }
  });

  it("counts an acr only when OIDC_MFA_ACR lists it, exactly", () => {
    const settings = settingsOf({ OIDC_MFA_ACR: " urn:idp:mfa , http://schemas.openid.net/pape/policies/2007/06/multi-factor" });
    expect(settings.mfaAcrValues).toEqual(["urn:idp:mfa", "http://schemas.openid.net/pape/policies/2007/06/multi-factor"]);
    expect(providerAssertsMfa({ acr: "urn:idp:mfa" }, settings)).toBe(true);
    expect(providerAssertsMfa({ acr: "urn:idp:MFA" }, settings)).toBe(false);
    expect(providerAssertsMfa({ acr: "1" }, settings)).toBe(false);
    expect(providerAssertsMfa({ acr: "urn:idp:mfa" }, settingsOf({}))).toBe(false);
  });
});
