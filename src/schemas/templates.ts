import { z } from "astro/zod";
import { colorSchema, fileSchema, linkSchema, text } from "./common";

/** Filter categories of /templates (plus 'all'). */
export const TEMPLATE_CATEGORIES = [
  "ideacao",
  "discovery",
  "planejamento",
  "execucao",
  "documentacao",
  "metodologia",
  "playbooks",
] as const;

/** A template of the catalogue (/templates). */
export const templateSchema = z.object({
  /** Stable id (kebab-case). */
  id: z.string().regex(/^[a-z0-9-]+$/, "use letras minúsculas, números e hífens"),
  /** Template name. */
  title: text,
  /** What it is for. */
  description: text,
  /** Filter category. */
  category: z.enum(TEMPLATE_CATEGORIES),
  /** Tools where it is used. */
  tools: z.array(text).min(1),
  /** File format (Documento, Planilha, Apresentação, Quadro…). */
  format: text,
  /** Stage label shown on the card. */
  stage: text,
  /** Card colour. */
  color: colorSchema,
  /** Document address; empty while it is not published (the download shows disabled). */
  link: linkSchema,
  /** Or a file in content/arquivos/ (served through the gate); use one of `link` and `file`. */
  file: fileSchema,
});

/** A recommended digital tool (templates page). */
export const digitalToolSchema = z.object({
  /** Stable id. */
  id: text,
  /** Tool name. */
  name: text,
  /** What it is used for. */
  description: text,
  /** Official site (empty when unknown). */
  link: linkSchema,
});
