import { z } from "astro/zod";
import { text } from "./common";

const email = z.string().email("e-mail inválido");

/** /contato. */
export const contactSchema = z.object({
  /** General contact card. */
  general: z.object({
    /** Title. */ title: text,
    /** Text. */ description: text,
    /** Address. */ email,
    /** Availability. */ available: text,
    /** Response time. */ responseTime: text,
  }),
  /** Three team cards. */
  teams: z
    .array(
      z.object({
        /** Team. */ name: text,
        /** What it does. */ role: text,
        /** Specialties. */ expertise: z.array(text).min(2),
        /** Address. */ email,
      }),
    )
    .length(3),
  /** Three contact FAQs. */
  faqs: z.array(z.object({ /** Question. */ question: text, /** Answer. */ answer: text })).length(3),
  /** 'Pronto para começar?' call to action. */
  cta: z.object({ /** Heading. */ title: text, /** Text. */ text: text }),
  /** Podcast card (empty link = disabled). */
  podcast: z.object({ /** Title. */ title: text, /** Text. */ text: text, /** External audio page. */ link: z.string().default("") }),
});
