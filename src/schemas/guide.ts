import { z } from "astro/zod";

/** Frontmatter of a playbook guide page (content/guias/<id>.mdx); title and summary come from content/playbook.yaml. */
export const guideSchema = z.strictObject({
  /** Date shown as 'Atualizado em' instead of the file's last commit. */
  updated: z.coerce.date({ error: "use uma data AAAA-MM-DD" }).optional(),
});
