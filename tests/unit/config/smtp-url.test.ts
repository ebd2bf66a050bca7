import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";

const read = (value: string) => readConfig({ ...process.env, SMTP_URL: value }).smtpUrl;

describe("SMTP_URL", () => {
  it("takes an smtp:// or smtps:// address, and empty for the outbox", () => {
    expect(read("")).toBe("");
    expect(read("smtps://usuario:senha@smtp.empresa.com:465")).toBe("smtps://usuario:senha@smtp.empresa.com:465");
    expect(read(" smtp://smtp.empresa.com:587 ")).toBe("smtp://smtp.empresa.com:587");
  });

  it("refuses, in Portuguese, anything that cannot be a mail server's address", () => {
    for (const value of [
      "nao-e-uma-url",
      "http://127.0.0.1:1",
      "smtp://",
      "smtp://[::1",
      "smtp://h:99999",
      "__proto__",
      "smtp://h\u0000x",
      "smtp://h\u202e:25",
      "smtp://exemplo\u200b.com:25",
    ]) {
      expect(() => read(value), JSON.stringify(value)).toThrow(/^SMTP_URL deve ser um endereço smtp:\/\/ ou smtps:\/\//);
    }
  });
});
