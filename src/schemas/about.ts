import { z } from "astro/zod";
import { text } from "./common";

/** Frontmatter of /sobre-b1 (content/sobre/sobre-b1.mdx); the sections are the MDX body. */
export const aboutSchema = z.strictObject({
  /** Hero paragraph under the logos. */
  hero: text,
});
