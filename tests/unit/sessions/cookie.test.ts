import { describe, expect, it } from "vitest";
import { deleteSessionCookieHeader, readSessionCookie, sessionCookieHeader } from "../../../src/lib/server/sessions/cookie";

const TOKEN = "a".repeat(24) + "." + "b".repeat(24);
const PLANTED = "c".repeat(24) + "." + "d".repeat(24);

describe("the session cookie over http (no prefix possible)", () => {
  it("is found alone, first, last or between others, and never by a longer name", () => {
    expect(readSessionCookie("b1_session=abc.def", false)).toEqual({ token: "abc.def", conflict: false });
    expect(readSessionCookie("b1_session=abc.def; tema=escuro", false).token).toBe("abc.def");
    expect(readSessionCookie("tema=escuro; b1_session=abc.def", false).token).toBe("abc.def");
    expect(readSessionCookie("a=1;b1_session=abc.def;b=2", false).token).toBe("abc.def");
    expect(readSessionCookie("xb1_session=falso; b1_session=abc.def", false).token).toBe("abc.def");
    expect(readSessionCookie("__Host-b1_session=falso; b1_session=abc.def", false).token).toBe("abc.def");
    expect(readSessionCookie("xb1_session=falso", false)).toEqual({ token: null, conflict: false });
    expect(readSessionCookie("b1_session=", false)).toEqual({ token: null, conflict: false });
    expect(readSessionCookie(undefined, false)).toEqual({ token: null, conflict: false });
  });

  it("two session cookies (one planted by a sibling subdomain) sign nobody in: neither is picked", () => {
    for (const header of [
      `b1_session=${TOKEN}; b1_session=${PLANTED}`,
      `b1_session=${PLANTED}; tema=escuro; b1_session=${TOKEN}`,
      `b1_session=${TOKEN};b1_session=${TOKEN}`,
      `b1_session=; b1_session=${TOKEN}`,
    ]) {
      expect(readSessionCookie(header, false), header).toEqual({ token: null, conflict: true });
    }
  });

  it("is written host-only on Path=/, without Secure", () => {
    const header = sessionCookieHeader(TOKEN, Date.now() + 60_000, false);
    expect(header).toMatch(new RegExp(`^b1_session=${TOKEN.replace(".", "\\.")}; Path=/; HttpOnly; SameSite=Lax; Max-Age=(59|60)$`));
    expect(deleteSessionCookieHeader(false)).toBe("b1_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });
});

describe("the session cookie over https", () => {
  it("is named __Host-b1_session, Secure, Path=/ and without Domain, so no other host can set it", () => {
    const header = sessionCookieHeader(TOKEN, Date.now() + 60_000, true);
    expect(header.startsWith(`__Host-b1_session=${TOKEN}; Path=/;`)).toBe(true);
    expect(header).toContain("; Secure");
    expect(header).not.toMatch(/domain=/i);
    expect(deleteSessionCookieHeader(true)).toBe("__Host-b1_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
  });

  it("only the prefixed name is read: a plain b1_session (what a sibling subdomain can plant) is ignored", () => {
    expect(readSessionCookie(`__Host-b1_session=${TOKEN}`, true)).toEqual({ token: TOKEN, conflict: false });
    expect(readSessionCookie(`b1_session=${PLANTED}; __Host-b1_session=${TOKEN}`, true)).toEqual({ token: TOKEN, conflict: false });
    expect(readSessionCookie(`b1_session=${PLANTED}`, true)).toEqual({ token: null, conflict: false });
    expect(readSessionCookie(`__Host-b1_session=${TOKEN}; __Host-b1_session=${PLANTED}`, true)).toEqual({ token: null, conflict: true });
  });
});
