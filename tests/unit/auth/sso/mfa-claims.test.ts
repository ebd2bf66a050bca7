import { describe, expect, it } from "vitest";
import { providerAssertsMfa } from "../../../../src/lib/server/auth/sso/claims";
import { readConfig } from "../../../../src/lib/server/config/config";

describe("MFA asserted by the provider", () => {
  it("counts an amr that names a second factor or a device-bound key (RFC 8176), not a password alone", () => {
    expect(providerAssertsMfa({ amr: ["pwd", "mfa"] }, [])).toBe(true);
    expect(providerAssertsMfa({ amr: ["hwk"] }, [])).toBe(true);
    expect(providerAssertsMfa({ amr: ["pwd", "otp"] }, [])).toBe(true);
    expect(providerAssertsMfa({ amr: ["pwd"] }, [])).toBe(false);
    expect(providerAssertsMfa({ amr: ["pwd", "kba"] }, [])).toBe(false);
    expect(providerAssertsMfa({ amr: "mfa" }, [])).toBe(false);
    expect(providerAssertsMfa({}, [])).toBe(false);
  });

  it("counts an acr only when OIDC_MFA_ACR lists it, exactly", () => {
    const { mfaAcrValues } = readConfig({
      OIDC_ISSUER: "https://idp.example.com",
      OIDC_CLIENT_ID: "portal",
      OIDC_MFA_ACR: " urn:idp:mfa , http://schemas.openid.net/pape/policies/2007/06/multi-factor",
    }).oidc!;
    expect(mfaAcrValues).toEqual(["urn:idp:mfa", "http://schemas.openid.net/pape/policies/2007/06/multi-factor"]);
    expect(providerAssertsMfa({ acr: "urn:idp:mfa" }, mfaAcrValues)).toBe(true);
    expect(providerAssertsMfa({ acr: "urn:idp:MFA" }, mfaAcrValues)).toBe(false);
    expect(providerAssertsMfa({ acr: "1" }, mfaAcrValues)).toBe(false);
    expect(providerAssertsMfa({ acr: "urn:idp:mfa" }, [])).toBe(false);
  });
});
