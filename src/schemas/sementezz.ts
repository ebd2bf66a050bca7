import { z } from "astro/zod";
import { iconSchema, text } from "./common";

/** /sementezz, the internal innovation programme. */
export const sementezzSchema = z.object({
  /** Hero text. */
  hero: z.object({ /** Title. */ title: text, /** Text. */ text: text }),
  /** 'Como tudo acontece': five cards. */
  overview: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(5),
  /** The eight steps of the cycle, in order. */
  steps: z
    .array(
      z.object({
        /** 1…8. */ number: z.number().int().min(1).max(8),
        /** Title. */ title: text,
        /** Description. */ description: text,
        /** Who is responsible. */ responsible: text,
      }),
    )
    .length(8),
  /** Eight criteria for registering a demand. */
  criteria: z
    .array(
      z.object({
        /** Criterion. */ title: text,
        /** Explanation. */ text: text,
        /** Optional scale (e.g. Baixo / Médio / Alto). */ scale: z.array(text).optional(),
      }),
    )
    .length(8),
  /** 'Construção de legado': five values. */
  legacy: z.array(z.object({ /** Value. */ title: text, /** Text. */ text: text })).length(5),
  /** Recognition section. */
  recognition: z.object({ /** Heading. */ title: text, /** Paragraphs. */ paragraphs: z.array(text).min(1) }),
  /** Footer links (non-functional in this version). */
  footerLinks: z.array(text).length(6),
  /** Voluntary participation note. */
  note: text,
});
