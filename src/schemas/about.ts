import { z } from "astro/zod";
import { text } from "./common";
import { readingSchema } from "./reading";

/** Frontmatter of /sobre-b1 (content/sobre/sobre-b1.mdx); the sections are the MDX body. */
export const aboutSchema = z.strictObject({
  /** Hero paragraph under the logos. */
  hero: text,
  /** Required reading: version and one-line summary of the change (see docs/editar-conteudo.md). */
  leitura: readingSchema.optional(),
});
