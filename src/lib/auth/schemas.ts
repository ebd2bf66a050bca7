import { z } from "zod";
import { LINK_EXPIRED_MESSAGES } from "./link-expired-messages.ts";
import { EMAIL_PATTERN, INVISIBLE_CHARACTER, FIELD_MAX_LENGTH, MESSAGES, PASSWORD_PATTERN } from "./rules.ts";

export { LINK_EXPIRED_MESSAGES, MESSAGES, PASSWORD_PATTERN };

/** The server's (and the user CLI's) form schemas, built from auth-rules.ts: the /auth island validates with those rules. */

export const emailField = z.string().trim().max(FIELD_MAX_LENGTH.email, MESSAGES.email).regex(EMAIL_PATTERN, MESSAGES.email);
export const passwordField = z.string().max(FIELD_MAX_LENGTH.password, MESSAGES.passwordTooLong).regex(PASSWORD_PATTERN, MESSAGES.password);
/** A person's name: NFC (one spelling per name), then trimmed, 2–120 characters, nothing invisible. */
export const fullNameField = z
  .string()
  .normalize("NFC")
  .trim()
  .min(2, MESSAGES.name)
  .max(FIELD_MAX_LENGTH.name, MESSAGES.nameTooLong)
  .refine((name) => !INVISIBLE_CHARACTER.test(name), MESSAGES.nameCharacters);

/**
 * What an identity provider says about a person, held to the sign-up form's rules. The e-mail is
 * taken as sent: the form forgives spaces a person typed, but a claim padded with (Unicode) spaces
 * is refused, not trimmed into someone else's address. An absent name is allowed (the account's name
 * stays empty); a present one must pass the form's rule.
 */
export const ssoClaimsSchema = z.object({
  email: z.string().max(FIELD_MAX_LENGTH.email, MESSAGES.email).regex(EMAIL_PATTERN, MESSAGES.email),
  fullName: z.union([z.literal(""), fullNameField]),
});

export const signUpSchema = z
  .object({
    fullName: fullNameField,
    email: emailField,
    password: passwordField,
    confirmPassword: z.string(),
  })
  .refine((data) => data.password === data.confirmPassword, { message: MESSAGES.confirm, path: ["confirmPassword"] });

export const signInSchema = z.object({
  email: emailField,
  password: z.string().min(1, MESSAGES.passwordRequired).max(FIELD_MAX_LENGTH.password, MESSAGES.passwordTooLong),
});

/** The sign-in request: the form plus the page to return to. */
export const signInRequestSchema = signInSchema.extend({ next: z.string().max(2048).optional() });

export const resetRequestSchema = z.object({ email: emailField });

export const updatePasswordSchema = z
  .object({
    password: passwordField,
    confirmPassword: z.string(),
  })
  .refine((data) => data.password === data.confirmPassword, { message: MESSAGES.confirm, path: ["confirmPassword"] });

/** The new-password request: the form plus the e-mailed link's token. */
export const updatePasswordRequestSchema = z.intersection(updatePasswordSchema, z.object({ token: z.string().min(1).max(100) }));

/** Finishing a confirmation: the link's token and the password chosen at sign-up. */
export const confirmEmailSchema = z.object({
  token: z.string().min(1).max(100),
  password: z.string().min(1, MESSAGES.passwordRequired).max(FIELD_MAX_LENGTH.password, MESSAGES.passwordTooLong),
});

export const resendLinkSchema = z.object({
  email: z.string().trim().min(1, LINK_EXPIRED_MESSAGES.required).pipe(emailField),
  type: z.enum(["email-confirmation", "password-reset"]).default("email-confirmation"),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;
export type SignInRequest = z.infer<typeof signInRequestSchema>;
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequestSchema>;
export type ConfirmEmailInput = z.infer<typeof confirmEmailSchema>;
export type ResendLinkInput = z.infer<typeof resendLinkSchema>;
export type ResetRequestInput = z.infer<typeof resetRequestSchema>;
export type UpdatePasswordInput = z.infer<typeof updatePasswordSchema>;

/** The first message and the first message per field of a failed parse, as the API answers them. */
export function fieldMessages(error: z.ZodError): { error: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
  return { error: error.issues[0]?.message ?? "Dados inválidos", fields };
}
