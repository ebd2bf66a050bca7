import { z } from "astro/zod";
import { iconSchema, text } from "./common";

/** /sobre-b1. */
export const aboutSchema = z.object({
  /** Hero paragraph. */
  hero: text,
  /** 'Quem somos' paragraphs. */
  whoWeAre: z.array(text).min(1),
  /** The 5 Ps as the about content names them (Propósito, Problemas, Pessoas, Processo, Performance). */
  fivePs: z.object({ /** Lead-in sentence. */ intro: text, /** The five names. */ names: z.array(text).length(5) }),
  /** 'Como atuamos': five cards. */
  howWeWork: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(5),
  /** Four projects born in the unit. */
  projects: z.array(z.object({ /** Name. */ name: text, /** What it is. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
  /** 'Nosso papel no futuro' paragraphs. */
  future: z.array(text).min(1),
});
