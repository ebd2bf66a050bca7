import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";

describe("PUBLIC_URL and the origins the CSRF check accepts", () => {
  it("without PUBLIC_URL: localhost on PORT, and both loopback spellings the default HOST answers on", () => {
    expect(readConfig({})).toMatchObject({
      publicUrl: "http://localhost:4321",
      acceptedOrigins: ["http://localhost:4321", "http://127.0.0.1:4321"],
    });
    expect(readConfig({ PUBLIC_URL: " ", PORT: "8080" })).toMatchObject({
      publicUrl: "http://localhost:8080",
      acceptedOrigins: ["http://localhost:8080", "http://127.0.0.1:8080"],
    });
  });

  it.each([
    ["0.0.0.0", ["http://localhost:4321", "http://127.0.0.1:4321"]],
    ["::1", ["http://localhost:4321", "http://[::1]:4321"]],
    ["::", ["http://localhost:4321", "http://127.0.0.1:4321", "http://[::1]:4321"]],
    ["localhost", ["http://localhost:4321", "http://127.0.0.1:4321", "http://[::1]:4321"]],
  ])("HOST=%s without PUBLIC_URL: only the loopback spellings that reach the server", (host, origins) => {
    expect(readConfig({ HOST: host })).toMatchObject({ publicUrl: "http://localhost:4321", acceptedOrigins: origins });
  });

  it("HOST on one specific address without PUBLIC_URL: that address, and nothing else", () => {
    expect(readConfig({ HOST: "192.168.0.10" })).toMatchObject({
      publicUrl: "http://192.168.0.10:4321",
      acceptedOrigins: ["http://192.168.0.10:4321"],
    });
    expect(readConfig({ HOST: "fd00::10", PORT: "80" })).toMatchObject({
      publicUrl: "http://[fd00::10]",
      acceptedOrigins: ["http://[fd00::10]"],
    });
  });

  it("with PUBLIC_URL: exactly its origin, whatever HOST is", () => {
    expect(readConfig({ PUBLIC_URL: "https://hub.b1.example/", HOST: "127.0.0.1" })).toMatchObject({
      publicUrl: "https://hub.b1.example",
      acceptedOrigins: ["https://hub.b1.example"],
    });
    expect(readConfig({ PUBLIC_URL: "http://localhost:4321" }).acceptedOrigins).toEqual(["http://localhost:4321"]);
  });

  it("refuses a PUBLIC_URL that is not an http(s) address, in Portuguese", () => {
    for (const value of ["hub.b1.example", "ftp://hub.b1.example", "javascript:alert(1)"]) {
      expect(() => readConfig({ PUBLIC_URL: value })).toThrow(`PUBLIC_URL deve ser um endereço http:// ou https:// (recebido: "${value}")`);
    }
  });
});
