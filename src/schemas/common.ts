import { z } from "astro/zod";
import { icons } from "lucide-react";
import { findRoute } from "../lib/routes";
import { DOWNLOADS_DIR, isDownloadFileName } from "../lib/content/downloads";

/** Colour names the components know how to paint (see src/components/content/colors.ts). */
export const colorSchema = z.enum([
  "blue",
  "green",
  "purple",
  "orange",
  "red",
  "teal",
  "indigo",
  "pink",
  "amber",
  "cyan",
  "emerald",
  "slate",
]);

/** A lucide icon name (https://lucide.dev/icons, PascalCase, e.g. Lightbulb). */
export const iconSchema = z
  .string()
  .refine((name) => name in icons, { message: "ícone desconhecido: use um nome do lucide em PascalCase, ex.: Lightbulb" });

/**
 * A link field: empty (no address known yet: the action shows disabled), an https/mailto
 * address, or an internal path that must be a route of the portal.
 */
export const linkSchema = z
  .string()
  .default("")
  .refine(
    (value) =>
      value === "" || /^(https:\/\/|mailto:)/.test(value) || (value.startsWith("/") && findRoute(value.split("#")[0]!) !== undefined),
    {
      message: "link inválido: use https://…, mailto:… ou uma rota interna existente (veja src/lib/routes.ts)",
    },
  );

/**
 * A file kept in git beside the content (content/arquivos/<name>), served through the gate to whoever
 * may open the page that lists it; empty when there is none. `content:check` confirms the file exists.
 */
export const fileSchema = z
  .string()
  .default("")
  .refine((value) => value === "" || isDownloadFileName(value), {
    message: `arquivo inválido: use o nome de um arquivo em ${DOWNLOADS_DIR}/ (letras minúsculas, números e hífens, extensão pdf, docx, xlsx, pptx, odt, ods, odp, csv ou zip)`,
  });

/** Non-empty text. */
export const text = z.string().trim().min(1, "texto obrigatório");

/** An item's 0-based place in its YAML list, set by the loader (editors never write it). */
export const filePosition = z.number().int().min(0);
