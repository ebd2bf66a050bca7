import { z } from "zod";
import { LINK_EXPIRED_MESSAGES } from "./link-expired-messages.ts";

export { LINK_EXPIRED_MESSAGES };

/** Form schemas shared by the islands (react-hook-form) and the server (spec §5). */

export const MESSAGES = {
  name: "Nome deve ter pelo menos 2 caracteres",
  email: "E-mail inválido",
  password: "Senha deve ter pelo menos 8 caracteres, incluindo maiúscula, minúscula, número e caractere especial",
  passwordRequired: "Senha é obrigatória",
  confirm: "Senhas não conferem",
} as const;

/** ≥ 8 characters: lower, upper, digit and one of @$!%*?&; nothing else allowed. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,}$/;

export const emailField = z.string().trim().email(MESSAGES.email).max(254, MESSAGES.email);
export const passwordField = z.string().regex(PASSWORD_PATTERN, MESSAGES.password).max(128, MESSAGES.password);
export const fullNameField = z.string().trim().min(2, MESSAGES.name).max(120);

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
  password: z.string().min(1, MESSAGES.passwordRequired).max(128),
});

export const resetRequestSchema = z.object({ email: emailField });

export const updatePasswordSchema = z
  .object({
    password: passwordField,
    confirmPassword: z.string(),
  })
  .refine((data) => data.password === data.confirmPassword, { message: MESSAGES.confirm, path: ["confirmPassword"] });

export const resendLinkSchema = z.object({
  email: z.string().trim().min(1, LINK_EXPIRED_MESSAGES.required).pipe(emailField),
  type: z.enum(["email-confirmation", "password-reset"]).default("email-confirmation"),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;
export type ResetRequestInput = z.infer<typeof resetRequestSchema>;
export type UpdatePasswordInput = z.infer<typeof updatePasswordSchema>;
