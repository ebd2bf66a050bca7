/**
 * The account forms' rules, dependency-free so the /auth island ships without a schema
 * library (see docs/decisions.md: React alone is ~69 KB of the 80 KB budget). The server's zod schemas in
 * auth-schemas.ts are built from the same patterns, limits and messages; tests/unit/auth/form-rules.test.ts holds
 * both to the same verdict on every case.
 */

export const MESSAGES = {
  name: "Nome deve ter pelo menos 2 caracteres",
  nameTooLong: "Nome deve ter no máximo 120 caracteres",
  nameCharacters: "Nome não pode conter caracteres de controle ou invisíveis",
  email: "E-mail inválido",
  password: "Senha deve ter pelo menos 8 caracteres, incluindo maiúscula, minúscula, número e caractere especial",
  passwordRequired: "Senha é obrigatória",
  passwordTooLong: "Senha deve ter no máximo 128 caracteres",
  confirm: "Senhas não conferem",
} as const;

export const FIELD_MAX_LENGTH = { name: 120, email: 254, password: 128 } as const;

/**
 * Characters that are never part of a name: control and format (Cc, Cf: separators, zero-width and
 * bidi marks, BOM), lone surrogates (Cs), private use (Co), unassigned and noncharacters (Cn), line
 * and paragraph separators (Zl, Zp), and the letters that draw nothing (Hangul fillers, the braille
 * blank, the combining grapheme joiner): a name made only of them looked empty in the panel.
 */
export const INVISIBLE_CHARACTER = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u034F\u115F\u1160\u2800\u3164\uFFA0]/u;

/** The same, line breaks excepted: for free text written in a text area (a role's description, a trail answer). */
export const INVISIBLE_EXCEPT_LINE_BREAK = /(?![\n\r])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u034F\u115F\u1160\u2800\u3164\uFFA0]/u;

/** ≥ 8 characters: lower, upper, digit and one of @$!%*?&; nothing else allowed. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;

/**
 * zod 4's default e-mail pattern (kept here so client and server agree byte for byte). ASCII only, so no
 * look-alike (the Kelvin sign U+212A lower-cases to "k") or normalisation can make two spellings one address.
 */
export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** A field rule: the Portuguese message when `value` is wrong, else undefined. */
export type Rule = (value: string, values: Readonly<Record<string, string>>) => string | undefined;
export type FormRules<F extends string> = Readonly<Record<F, Rule>>;

const email: Rule = (value) => {
  const trimmed = value.trim();
  return trimmed.length <= FIELD_MAX_LENGTH.email && EMAIL_PATTERN.test(trimmed) ? undefined : MESSAGES.email;
};
const newPassword: Rule = (value) =>
  value.length > FIELD_MAX_LENGTH.password ? MESSAGES.passwordTooLong : PASSWORD_PATTERN.test(value) ? undefined : MESSAGES.password;
const confirmation: Rule = (value, values) => (value === values.password ? undefined : MESSAGES.confirm);

export const signUpRules: FormRules<"fullName" | "email" | "password" | "confirmPassword"> = {
  fullName: (value) => {
    const trimmed = value.normalize("NFC").trim();
    if (trimmed.length < 2) return MESSAGES.name;
    if (trimmed.length > FIELD_MAX_LENGTH.name) return MESSAGES.nameTooLong;
    return INVISIBLE_CHARACTER.test(trimmed) ? MESSAGES.nameCharacters : undefined;
  },
  email,
  password: newPassword,
  confirmPassword: confirmation,
};

export const signInRules: FormRules<"email" | "password"> = {
  email,
  password: (value) =>
    value.length === 0 ? MESSAGES.passwordRequired : value.length > FIELD_MAX_LENGTH.password ? MESSAGES.passwordTooLong : undefined,
};

export const resetRequestRules: FormRules<"email"> = { email };

export const updatePasswordRules: FormRules<"password" | "confirmPassword"> = { password: newPassword, confirmPassword: confirmation };

/** Every field's first problem, in field order; an empty object means the form may be sent. */
export function validateForm<F extends string>(rules: FormRules<F>, values: Readonly<Record<string, string>>): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const field of Object.keys(rules) as F[]) {
    const message = rules[field](values[field] ?? "", values);
    if (message) errors[field] = message;
  }
  return errors;
}
