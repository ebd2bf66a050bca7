import { z } from "zod";

/** A code typed after the password or when enrolling: six digits, or a recovery code. */
export const twoFactorCodeSchema = z.object({
  code: z.string().trim().min(1, "Informe o código do aplicativo autenticador.").max(32, "Código inválido."),
});
