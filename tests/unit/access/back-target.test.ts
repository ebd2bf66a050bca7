import { describe, expect, it } from "vitest";
import { portalReferrer } from "../../../src/lib/back-target";

describe("'Voltar' target", () => {
  const here = "https://hub.example.com/faq";
  it("goes back to the portal page the reader came from", () => {
    expect(portalReferrer("https://hub.example.com/templates?q=canvas", here)).toBe("/templates?q=canvas");
  });
  it("keeps its default for other sites, the same page, sign-in pages or no referrer", () => {
    for (const referrer of ["", "https://evil.example.com/templates", here, "https://hub.example.com/auth?next=/faq", "nao é url"]) {
      expect(portalReferrer(referrer, here), referrer).toBeNull();
    }
  });
});
