import { z } from "zod";

/** The account page's reminder choice. */
export const digestSettingSchema = z.strictObject({
  lembreteSemanal: z.boolean({ error: "Informe se deseja receber o lembrete semanal" }),
});
