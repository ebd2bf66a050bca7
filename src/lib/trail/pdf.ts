import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { type TrailPhase, type TrailState } from "./trail";

const MARGIN = 50;
const PAGE = { width: 595.28, height: 841.89 }; // A4

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

/** Characters outside WinAnsi (emoji etc.) would break the standard fonts; replace them. */
function printable(text: string): string {
  return text.replace(/[^\u0000-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac]/g, "?");
}

/** A real PDF of the trail (pdf-lib, standard fonts: Portuguese accents render). */
export async function buildTrailPdf(state: TrailState, phases: readonly TrailPhase[], date: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const name = state.projectName.trim() || "Nome não informado";
  doc.setTitle(`Trilha de projeto - ${printable(name)}`);
  doc.setSubject("Metodologia B1");
  doc.setCreator("B1 Method Hub");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;

  const write = (text: string, options: { font?: PDFFont; size?: number; color?: [number, number, number]; gap?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 11;
    for (const line of wrap(printable(text), font, size, PAGE.width - 2 * MARGIN)) {
      if (y < MARGIN + size) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - MARGIN;
      }
      page.drawText(line, { x: MARGIN, y, size, font, color: rgb(...(options.color ?? [0.06, 0.09, 0.16])) });
      y -= size + 4;
    }
    y -= options.gap ?? 2;
  };

  write("Trilha de Projeto — Metodologia B1", { font: bold, size: 18, gap: 6 });
  write(`Projeto: ${name}`, { font: bold, size: 13 });
  write(`Data: ${date.toLocaleDateString("pt-BR", { timeZone: "America/Sao_Paulo" })}`, { gap: 12 });
  phases.forEach((phase, index) => {
    const done = state.completed.includes(phase.id);
    write(`${index + 1}. ${phase.title.toLocaleUpperCase("pt-BR")}`, { font: bold, size: 13 });
    write(`Status: ${done ? "Concluída" : "Pendente"}`, { color: done ? [0.09, 0.5, 0.24] : [0.6, 0.4, 0.05], gap: 4 });
    phase.questions.forEach((question, q) => {
      write(question, { font: bold, size: 10 });
      write(state.answers[phase.id]?.[String(q)]?.trim() || "Não respondida", { size: 10, gap: 6 });
    });
    y -= 8;
  });
  return doc.save();
}
