import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  MESSAGES,
  resetRequestRules,
  signInRules,
  signUpRules,
  updatePasswordRules,
  validateForm,
  type FormRules,
} from "../../../src/lib/auth/rules";
import { resetRequestSchema, signInSchema, signUpSchema, ssoClaimsSchema, updatePasswordSchema } from "../../../src/lib/auth/schemas";

/** What the server answers for a body: each field's first message (as parseJsonBody reports it). */
function serverErrors(schema: z.ZodType, values: Record<string, string>) {
  const result = schema.safeParse(values);
  const fields: Record<string, string> = {};
  if (!result.success) for (const issue of result.error.issues) fields[issue.path.join(".")] ??= issue.message;
  return fields;
}

const good = { fullName: "Maria Silva", email: "maria@b1.example.com", password: "Senha@123", confirmPassword: "Senha@123" };
const long = (n: number) => "a".repeat(n);

const CASES: Record<string, Record<string, string>> = {
  valid: good,
  "nome curto": { ...good, fullName: " M " },
  "nome longo": { ...good, fullName: long(121) },
  "nome só espaços": { ...good, fullName: "   " },
  "nome com separador invisível": { ...good, fullName: "Maria\u001fSilva" },
  "nome com inversão bidi": { ...good, fullName: "Maria\u202eSilva" },
  "nome com espaço de largura zero": { ...good, fullName: "Maria\u200bSilva" },
  // 121 code units as typed, 120 once "e" + combining acute is composed (NFC): both sides count after NFC.
  "nome decomposto no limite": { ...good, fullName: `${long(119)}e\u0301` },
  "nome decomposto acima do limite": { ...good, fullName: `${long(120)}e\u0301` },
  "e-mail sem domínio": { ...good, email: "maria@" },
  "e-mail com espaços em volta": { ...good, email: "  maria@b1.example.com  " },
  "e-mail com pontos seguidos": { ...good, email: "maria..silva@b1.example.com" },
  "e-mail longo": { ...good, email: `${long(250)}@b1.com` },
  "e-mail vazio": { ...good, email: "" },
  "senha sem especial": { ...good, password: "Senha1234", confirmPassword: "Senha1234" },
  "senha com espaço": { ...good, password: "Senha @123", confirmPassword: "Senha @123" },
  "senha curta": { ...good, password: "Se@1a", confirmPassword: "Se@1a" },
  "senha longa": { ...good, password: `Aa1@${long(130)}`, confirmPassword: `Aa1@${long(130)}` },
  "senha vazia": { ...good, password: "", confirmPassword: "" },
  "confirmação diferente": { ...good, confirmPassword: "Senha@124" },
  "tudo errado": { fullName: "", email: "x", password: "fraca", confirmPassword: "outra" },
};

const FORMS: [string, FormRules<string>, z.ZodType][] = [
  ["cadastro", signUpRules, signUpSchema],
  ["login", signInRules, signInSchema],
  ["recuperação", resetRequestRules, resetRequestSchema],
  ["nova senha", updatePasswordRules, updatePasswordSchema],
];

describe("the /auth island's rules and the server's schemas agree", () => {
  for (const [form, rules, schema] of FORMS) {
    for (const [name, values] of Object.entries(CASES)) {
      it(`${form}: ${name}`, () => {
        const client = validateForm(rules, values);
        const server = serverErrors(schema, values);
        // Same verdict, and every message the server gives is the one the form already showed.
        expect(Object.keys(client).length === 0).toBe(Object.keys(server).length === 0);
        for (const [field, message] of Object.entries(server)) expect(client[field]).toBe(message);
      });
    }
  }
});

describe("form rules", () => {
  it("report every wrong field at once, in the spec's words", () => {
    expect(validateForm(signUpRules, CASES["tudo errado"]!)).toEqual({
      fullName: MESSAGES.name,
      email: MESSAGES.email,
      password: MESSAGES.password,
      confirmPassword: MESSAGES.confirm,
    });
  });

  it("accept a valid sign-in and ask for the password when it is empty", () => {
    expect(validateForm(signInRules, { email: "maria@b1.example.com", password: "qualquer" })).toEqual({});
    expect(validateForm(signInRules, { email: "maria@b1.example.com", password: "" })).toEqual({ password: MESSAGES.passwordRequired });
  });

  it("count and keep a name in NFC, so a decomposed accent is one character", () => {
    expect(validateForm(signUpRules, CASES["nome decomposto no limite"]!)).toEqual({});
    expect(validateForm(signUpRules, CASES["nome decomposto acima do limite"]!)).toEqual({ fullName: MESSAGES.nameTooLong });
    expect(signUpSchema.parse({ ...good, fullName: " Jose\u0301 Conceic\u0327a\u0303o " }).fullName).toBe("Jos\u00e9 Concei\u00e7\u00e3o");
  });

  it("take an e-mail claim only as the form's pattern, unpadded and ASCII (no Kelvin sign, no formula)", () => {
    const claim = (email: string) => ssoClaimsSchema.safeParse({ email, fullName: "" }).success;
    expect(claim("katia@b1.example.com")).toBe(true);
    expect(claim("\u212Aatia@b1.example.com")).toBe(false);
    expect(claim(" katia@b1.example.com")).toBe(false);
    expect(claim("katia@b1.example.com\u00a0")).toBe(false);
    expect(claim('=HYPERLINK("x")@b1.example.com')).toBe(false);
  });
});
