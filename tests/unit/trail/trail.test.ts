import fs from "node:fs";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import {
  TRAIL_KEYS,
  TRAIL_PHASE_IDS,
  buildTrailText,
  emptyTrail,
  mergeTrails,
  parseStoredTrail,
  progressPercent,
  serializeTrail,
  setAnswer,
  setProjectName,
  toggleCompleted,
  trailFileName,
} from "../../../src/lib/trail/trail";
import { buildTrailPdf } from "../../../src/lib/trail/pdf";

const ids = TRAIL_PHASE_IDS;
const phases = [
  { id: "ideacao", title: "Ideação", questions: ["Qual problema?", "Para quem?", "Quais alternativas?"] },
  { id: "discovery", title: "Discovery", questions: ["O que aprendemos?", "Quais dados?", "Quais restrições?"] },
];
const DATE = new Date("2026-03-05T15:00:00Z");

describe("trail state", () => {
  it("computes progress as completed / total × 100", () => {
    expect(progressPercent({ completed: [] }, 8)).toBe(0);
    expect(progressPercent({ completed: ["ideacao", "mvp"] }, 8)).toBe(25);
    expect(progressPercent({ completed: [...ids] }, 8)).toBe(100);
  });

  it("toggles completion both ways, in any order, keeping phase order", () => {
    let state = toggleCompleted(emptyTrail(), "mvp", ids, 5);
    state = toggleCompleted(state, "ideacao", ids, 6);
    expect(state.completed).toEqual(["ideacao", "mvp"]);
    expect(state.updatedAt).toBe(6);
    expect(toggleCompleted(state, "mvp", ids).completed).toEqual(["ideacao"]);
  });

  it("round-trips through storage and ignores corrupt or foreign values", () => {
    const state = setProjectName(setAnswer(toggleCompleted(emptyTrail(), "discovery", ids, 1), "ideacao", 1, "Resposta", 2), "Checkout", 3);
    const stored = serializeTrail(state);
    expect(parseStoredTrail((key) => stored[key] ?? null, ids)).toEqual(state);

    const corrupt: Record<string, string> = {
      [TRAIL_KEYS.completed]: '["ideacao","hackeado",7,null,"ideacao"]',
      [TRAIL_KEYS.answers]: '{"ideacao":{"0":"ok","5":"fora","1":42},"outra":{"0":"x"},"mvp":"texto"}',
      [TRAIL_KEYS.projectName]: "Projeto",
    };
    expect(parseStoredTrail((key) => corrupt[key] ?? null, ids)).toMatchObject({
      completed: ["ideacao"],
      answers: { ideacao: { "0": "ok" } },
      projectName: "Projeto",
    });
    const garbage: Record<string, string> = { [TRAIL_KEYS.completed]: "{nao é json", [TRAIL_KEYS.answers]: "[1,2]" };
    expect(parseStoredTrail((key) => garbage[key] ?? null, ids)).toEqual(emptyTrail());
  });

  it("lets the newer copy win when merging local and server", () => {
    const local = { ...emptyTrail(), projectName: "local", updatedAt: 10 };
    const server = { ...emptyTrail(), projectName: "servidor", updatedAt: 20 };
    expect(mergeTrails(local, server).projectName).toBe("servidor");
    expect(mergeTrails({ ...local, updatedAt: 30 }, server).projectName).toBe("local");
    expect(mergeTrails(local, null)).toBe(local);
  });

  it("names files after the project, or 'projeto'", () => {
    expect(trailFileName("Novo Checkout — Fase 1", "pdf")).toBe("novo-checkout-fase-1.pdf");
    expect(trailFileName("   ", "txt")).toBe("projeto.txt");
  });
});

describe("exports", () => {
  const state = setProjectName(
    setAnswer(toggleCompleted(emptyTrail(), "ideacao", ids), "ideacao", 0, "Abandono no checkout"),
    "Pagamento Instantâneo",
  );

  it("writes the exact plain-text export (golden file)", () => {
    const golden = fs.readFileSync(new URL("./__golden__/trail-export.txt", import.meta.url), "utf8");
    expect(buildTrailText(state, phases, DATE)).toBe(golden);
  });

  it("says 'Nome não informado' and 'Não respondida' when empty", () => {
    const text = buildTrailText(emptyTrail(), phases, DATE);
    expect(text).toContain("Projeto: Nome não informado");
    expect(text.match(/Resposta: Não respondida/g)).toHaveLength(6);
    expect(text).toContain("=".repeat(50));
  });

  it("makes a real PDF carrying the project name", async () => {
    const bytes = await buildTrailPdf(state, phases, DATE);
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe("%PDF-");
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toContain("Pagamento Instantâneo");
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
  });
});
