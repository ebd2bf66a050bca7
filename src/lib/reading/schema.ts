import { z } from "zod";

/** 'Li e entendi': the page and the version the reader saw. */
export const confirmReadingSchema = z.strictObject({
  pagina: z.string({ error: "Informe a página" }).min(1, "Informe a página").max(300, "Página inválida"),
  versao: z.number({ error: "Informe a versão lida" }).int("Versão inválida").min(1, "Versão inválida"),
});
