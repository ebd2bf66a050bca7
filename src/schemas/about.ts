import { z } from "astro/zod";
import { iconSchema, text } from "./common";

/** /sobre-b1. */
export const aboutSchema = z.object({
  /** Hero paragraph. */
  hero: text,
  /** 'Quem somos' paragraphs. */
  whoWeAre: z.array(text).min(1),
  /** 'Como atuamos': five cards. */
  howWeWork: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(5),
  /** Four projects born in the unit. */
  projects: z.array(z.object({ /** Name. */ name: text, /** What it is. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
  /** 'Nosso papel no futuro' paragraphs. */
  future: z.array(text).min(1),
});
