import { describe, expect, it } from "vitest";
import { detailFields, detailsReadable } from "../../../src/lib/audit/detail-fields";

describe("audit details as labelled Portuguese fields", () => {
  it("labels known keys, translates known codes, and reads booleans, lists and numbers in Portuguese", () => {
    const details = JSON.stringify({
      email: "ana@b1.example.com",
      error: "invalid_credentials",
      sent: true,
      roles: ["admin"],
      count: 12345,
      pages: [],
    });
    expect(detailFields(details)).toEqual([
      { label: "E-mail", value: "ana@b1.example.com" },
      { label: "Motivo", value: "e-mail ou senha incorretos" },
      { label: "Enviado", value: "sim" },
      { label: "Perfis", value: "admin" },
      { label: "Ocorrências", value: "12.345" },
      { label: "Páginas", value: "nenhum" },
    ]);
    expect(detailsReadable(details)).toBe(
      "E-mail: ana@b1.example.com; Motivo: e-mail ou senha incorretos; Enviado: sim; Perfis: admin; Ocorrências: 12.345; Páginas: nenhum",
    );
  });

  it("keeps unknown keys and values as written, and text that is not a JSON object as one field", () => {
    expect(detailFields('{"novo_campo":"valor","aninhado":{"a":[1,{"b":2}]}}')).toEqual([
      { label: "novo campo", value: "valor" },
      { label: "aninhado", value: '{"a":[1,{"b":2}]}' },
    ]);
    expect(detailFields("não é json")).toEqual([{ label: "Detalhes", value: "não é json" }]);
    expect(detailFields("[1,2]")).toEqual([{ label: "Detalhes", value: "1, 2" }]);
    expect(detailFields(null)).toEqual([]);
  });

  it("never reads a label or value through an inherited key", () => {
    const fields = detailFields('{"__proto__":{"email":"x"},"constructor":"c","toString":"t","hasOwnProperty":"invalid_credentials"}');
    expect(fields).toEqual([
      { label: "__proto__", value: '{"email":"x"}' },
      { label: "constructor", value: "c" },
      { label: "toString", value: "t" },
      { label: "hasOwnProperty", value: "e-mail ou senha incorretos" },
    ]);
    expect(detailFields('{"n":1e400,"deep":' + "[".repeat(2000) + "]".repeat(2000) + "}")[0]).toEqual({ label: "n", value: "∞" });
  });
});
