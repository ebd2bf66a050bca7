/**
 * Which failed sends surely left no mail behind (the digest gives their claim back) and which may
 * have delivered it (the claim is kept, marked for the operator's resend). The errors are shaped as
 * nodemailer 10 throws them; the loopback cases run for real in digest-outcomes.test.ts.
 */
import { describe, expect, it } from "vitest";
import { mailServerUnreachable, mailSurelyNotTaken } from "../../../src/lib/server/mail/email";

const error = (fields: Record<string, unknown>) => Object.assign(new Error("falha"), fields);

describe("mailSurelyNotTaken", () => {
  it("is true for a 4xx or 5xx reply, at any step (greeting, RCPT, after DATA)", () => {
    for (const responseCode of [421, 451, 550, 554]) expect(mailSurelyNotTaken(error({ code: "EMESSAGE", responseCode }))).toBe(true);
  });

  it("is true when no connection was made: refused, unreachable, no address, timed out while connecting", () => {
    expect(mailSurelyNotTaken(error({ code: "ESOCKET", originalCode: "ECONNREFUSED", command: "CONN" }))).toBe(true);
    expect(mailSurelyNotTaken(error({ code: "ESOCKET", originalCode: "EHOSTUNREACH", command: "CONN" }))).toBe(true);
    expect(mailSurelyNotTaken(error({ code: "EDNS", originalCode: "ENOTFOUND" }))).toBe(true);
    expect(mailSurelyNotTaken(error({ code: "ETIMEDOUT", timeoutType: "CONNECT_TIMEOUT", command: "CONN" }))).toBe(true);
  });

  it("is false when the connection dropped or stalled once open: the server may have stored the message", () => {
    expect(mailSurelyNotTaken(error({ code: "ECONNECTION", command: "CONN" }))).toBe(false);
    expect(mailSurelyNotTaken(error({ code: "ESOCKET", originalCode: "ECONNRESET", command: "CONN" }))).toBe(false);
    expect(mailSurelyNotTaken(error({ code: "ETIMEDOUT", timeoutType: "SOCKET_TIMEOUT", command: "CONN" }))).toBe(false);
    // A 2xx/3xx in an error is not a refusal; nor is anything that is not an error at all.
    expect(mailSurelyNotTaken(error({ code: "EPROTOCOL", responseCode: 250 }))).toBe(false);
    expect(mailSurelyNotTaken("falha")).toBe(false);
    expect(mailSurelyNotTaken(null)).toBe(false);
  });
});

describe("mailServerUnreachable (the weekly reminder stops its pass after a few in a row)", () => {
  it("is true only when the portal's send saw no line at all from a mail server", () => {
    expect(mailServerUnreachable(error({ code: "ESOCKET", originalCode: "ECONNREFUSED", serverReplied: false }))).toBe(true);
    expect(mailServerUnreachable(error({ code: "ETIMEDOUT", timeoutType: "GREETING_TIMEOUT", serverReplied: false }))).toBe(true);
    expect(mailServerUnreachable(error({ code: "ECONNECTION", serverReplied: false }))).toBe(true);
  });

  it("is false once the server said anything, for a reply code, and for errors of unknown origin", () => {
    expect(mailServerUnreachable(error({ code: "EMESSAGE", responseCode: 451, serverReplied: true }))).toBe(false);
    expect(mailServerUnreachable(error({ code: "ECONNECTION", serverReplied: true }))).toBe(false);
    expect(mailServerUnreachable(error({ code: "ESOCKET", originalCode: "ECONNREFUSED" }))).toBe(false);
    expect(mailServerUnreachable(null)).toBe(false);
  });
});
