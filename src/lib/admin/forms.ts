import { z } from "zod";
import { emailField, fullNameField, passwordField } from "../auth/schemas.ts";
import { INVISIBLE_CHARACTER, INVISIBLE_EXCEPT_LINE_BREAK } from "../auth/rules.ts";

/** Descriptions may keep line breaks (a textarea); every other control or format character is refused. */

/** Admin request bodies, validated on the server (the panel's forms show server messages). */
const roleNames = z.array(z.string().trim().min(1).max(60), { message: "Lista de perfis inválida" }).max(30);

export const createUserSchema = z.object({
  email: emailField,
  fullName: fullNameField,
  password: passwordField,
  roles: roleNames.default([]),
});

export const updateUserSchema = z.object({
  fullName: fullNameField,
  roles: roleNames,
});

export const roleSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2, "Nome do perfil deve ter pelo menos 2 caracteres")
    .max(50, "Nome do perfil deve ter no máximo 50 caracteres")
    .refine((name) => !INVISIBLE_CHARACTER.test(name), "Nome do perfil não pode conter caracteres de controle ou invisíveis"),
  description: z
    .string()
    .trim()
    .max(300, "Descrição deve ter no máximo 300 caracteres")
    .refine((text) => !INVISIBLE_EXCEPT_LINE_BREAK.test(text), "Descrição não pode conter caracteres de controle ou invisíveis")
    .default(""),
  // A path as the route table writes them; a well-formed path that is no grantable page is dropped (keepGrantablePaths).
  pages: z
    .array(
      z
        .string()
        .max(200)
        .regex(/^\/[a-z0-9\-/]*$/, "Página inválida na lista de páginas"),
      { message: "Lista de páginas inválida" },
    )
    .max(100)
    .default([]),
  /** 'Acesso limitado' (custom roles only). */
  limited: z.boolean({ message: "Acesso limitado deve ser verdadeiro ou falso" }).default(false),
});

/** 'Quem pode abrir esta página': the chosen roles, or `null` to restore the default; the version read. */
export const pageAccessSchema = z.object({
  path: z
    .string()
    .max(200, "Página inválida")
    .regex(/^\/[a-z0-9\-/]*$/, "Página inválida"),
  roles: z.array(z.string().max(60, "Perfil inválido"), { message: "Lista de perfis inválida" }).max(100, "Perfis demais").nullable(),
  version: z.number({ message: "Versão inválida" }).int("Versão inválida").min(0, "Versão inválida").max(2_147_483_647, "Versão inválida"),
});

/** Query of the admin user list; unknown parameters are ignored. */
export const userListQuerySchema = z.object({
  q: z.string().max(200, "Busca muito longa").default(""),
  role: z.string().max(60, "Perfil inválido").default(""),
  page: z.coerce
    .number({ message: "Página inválida" })
    .int("Página inválida")
    .min(1, "Página inválida")
    .max(1_000_000, "Página inválida")
    .default(1),
});

export type CreateUserBody = z.infer<typeof createUserSchema>;
export type UpdateUserBody = z.infer<typeof updateUserSchema>;
export type RoleBody = z.infer<typeof roleSchema>;
