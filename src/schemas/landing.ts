import { z } from "astro/zod";
import { iconSchema, linkSchema, text } from "./common";

/** The public landing page (/). */
export const landingSchema = z.object({
  /** Top banner. */
  hero: z.object({ /** Main title. */ title: text, /** Line under the title. */ subtitle: text, /** Short paragraph. */ text: text }),
  /** 'Sobre' block paragraphs. */
  about: z.object({ /** Heading. */ title: text, /** Paragraphs. */ paragraphs: z.array(text).min(1) }),
  /** Approach: liberdade, prática, simplicidade. */
  approach: z.array(z.object({ /** Name. */ title: text, /** Explanation. */ text: text, /** Lucide icon. */ icon: iconSchema })).length(3),
  /** The eight values. */
  values: z
    .array(z.object({ /** Value name. */ title: text, /** What it means in practice. */ text: text, /** Lucide icon. */ icon: iconSchema }))
    .length(8),
  /** Clients and partners (link empty = shown without link). */
  partners: z
    .array(
      z.object({
        /** Name. */ name: text,
        /** One line. */ description: text,
        /** kind of relation. */ kind: z.enum(["cliente", "parceiro", "artigo"]),
        /** External page. */ link: linkSchema,
      }),
    )
    .length(5),
  /** Sementezz programme teaser. */
  sementezz: z.object({ /** Heading. */ title: text, /** Paragraph. */ text: text }),
  /** Tool-house block. */
  toolHouse: z.object({ /** Heading. */ title: text, /** Paragraph. */ text: text, /** Highlights. */ items: z.array(text).min(1) }),
  /** E-mail call to action. */
  cta: z.object({ /** Heading. */ title: text, /** Paragraph. */ text: text }),
});
