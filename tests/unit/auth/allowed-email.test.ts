import { describe, expect, it } from "vitest";
import { isAllowedEmail } from "../../../src/lib/server/auth/allowed-email";

const rule = { allowedDomains: ["corp.com", "corp.com.br", "irma.org"], allowedEmails: ["parceira@fora.net"] };

describe("isAllowedEmail", () => {
  it.each(["ana@corp.com", "ANA@CORP.COM", "ana@corp.com.br", "bia@irma.org", " ana@corp.com ", "parceira@fora.net", "PARCEIRA@fora.net"])(
    "accepts %s",
    (email) => expect(isAllowedEmail(email, rule)).toBe(true),
  );

  it.each([
    "x@corp.com.evil.com",
    "x@evil-corp.com",
    "x@evilcorp.com",
    "x@corp.com.",
    "x@sub.corp.com",
    "x@corp.co",
    "corp.com@evil.com",
    "x@evil.com#@corp.com",
    "x@corp.com@evil.com",
    "outra@fora.net",
    "@corp.com",
    "x@",
  ])("rejects %s", (email) => expect(isAllowedEmail(email, rule)).toBe(false));
});
