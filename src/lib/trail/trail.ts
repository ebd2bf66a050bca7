/**
 * The interactive trail's state and its pure operations (no I/O): progress, completion,
 * browser-storage parsing, merging with the server copy and the plain-text export.
 */
import { TRAIL_STORAGE_PREFIX } from "./forget.ts";
import { INVISIBLE_CHARACTER, INVISIBLE_EXCEPT_LINE_BREAK } from "../auth/rules.ts";

/** Invisible and control characters a paste may bring (zero-width, bidi, soft hyphen): dropped as typed, since the server refuses them. */
const INVISIBLE_IN_TEXT = new RegExp(INVISIBLE_EXCEPT_LINE_BREAK.source, "gu");
const INVISIBLE_IN_NAME = new RegExp(INVISIBLE_CHARACTER.source, "gu");
const cleanAnswer = (text: string) => text.replace(INVISIBLE_IN_TEXT, "").slice(0, MAX_ANSWER_LENGTH);

/** The 8 phase ids of the trail, in order (content ids and the keys saved in the browser). */
export const TRAIL_PHASE_IDS = [
  "ideacao",
  "discovery",
  "planejamento",
  "pre-execucao",
  "mvp",
  "documentacao",
  "go-live",
  "sustentacao",
] as const;

export { TRAIL_STORAGE_PREFIX };
export const TRAIL_KEYS = {
  completed: `${TRAIL_STORAGE_PREFIX}completed`,
  answers: `${TRAIL_STORAGE_PREFIX}answers`,
  projectName: `${TRAIL_STORAGE_PREFIX}project-name`,
} as const;

export const MAX_ANSWER_LENGTH = 5000;
export const MAX_PROJECT_NAME_LENGTH = 200;

/** Answers per phase id, then per question index ("0" … "2"). */
export type TrailAnswers = Record<string, Record<string, string>>;

export interface TrailState {
  completed: string[];
  answers: TrailAnswers;
  projectName: string;
  /** When it last changed (ms); 0 for a state never edited. */
  updatedAt: number;
}

export interface TrailPhase {
  id: string;
  title: string;
  questions: string[];
}

export const emptyTrail = (): TrailState => ({ completed: [], answers: {}, projectName: "", updatedAt: 0 });

export function progressPercent(state: Pick<TrailState, "completed">, total: number): number {
  return total === 0 ? 0 : Math.round((state.completed.length / total) * 100);
}

/** Marks or unmarks a phase, in any order; keeps the list in phase order. */
export function toggleCompleted(state: TrailState, phaseId: string, order: readonly string[], now = Date.now()): TrailState {
  const set = new Set(state.completed);
  if (set.has(phaseId)) set.delete(phaseId);
  else set.add(phaseId);
  return { ...state, completed: order.filter((id) => set.has(id)), updatedAt: now };
}

export function setAnswer(state: TrailState, phaseId: string, index: number, text: string, now = Date.now()): TrailState {
  const phase = { ...state.answers[phaseId], [String(index)]: cleanAnswer(text) };
  return { ...state, answers: { ...state.answers, [phaseId]: phase }, updatedAt: now };
}

export function setProjectName(state: TrailState, name: string, now = Date.now()): TrailState {
  return { ...state, projectName: name.replace(INVISIBLE_IN_NAME, "").slice(0, MAX_PROJECT_NAME_LENGTH), updatedAt: now };
}

function parseJson(raw: string | null): unknown {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** Keeps only known phase ids, question indexes 0–2 and string answers; anything else is dropped. */
export function sanitizeAnswers(value: unknown, phaseIds: readonly string[]): TrailAnswers {
  const answers: TrailAnswers = {};
  if (!value || typeof value !== "object" || Array.isArray(value)) return answers;
  for (const [phaseId, phase] of Object.entries(value)) {
    if (!phaseIds.includes(phaseId) || !phase || typeof phase !== "object" || Array.isArray(phase)) continue;
    for (const [index, text] of Object.entries(phase)) {
      if (!/^[0-2]$/.test(index) || typeof text !== "string") continue;
      (answers[phaseId] ??= {})[index] = cleanAnswer(text);
    }
  }
  return answers;
}

export function sanitizeCompleted(value: unknown, phaseIds: readonly string[]): string[] {
  if (!Array.isArray(value)) return [];
  const set = new Set(value.filter((id): id is string => typeof id === "string" && phaseIds.includes(id)));
  return phaseIds.filter((id) => set.has(id));
}

/** Reads the three storage entries; corrupt or foreign values are ignored, never thrown. */
export function parseStoredTrail(read: (key: string) => string | null, phaseIds: readonly string[]): TrailState {
  const name = read(TRAIL_KEYS.projectName);
  return {
    completed: sanitizeCompleted(parseJson(read(TRAIL_KEYS.completed)), phaseIds),
    answers: sanitizeAnswers(parseJson(read(TRAIL_KEYS.answers)), phaseIds),
    projectName: typeof name === "string" ? name.replace(INVISIBLE_IN_NAME, "").slice(0, MAX_PROJECT_NAME_LENGTH) : "",
    updatedAt: Number(read(`${TRAIL_STORAGE_PREFIX}updated-at`)) || 0,
  };
}

/** The storage entries for a state (key → string value). */
export function serializeTrail(state: TrailState): Record<string, string> {
  return {
    [TRAIL_KEYS.completed]: JSON.stringify(state.completed),
    [TRAIL_KEYS.answers]: JSON.stringify(state.answers),
    [TRAIL_KEYS.projectName]: state.projectName,
    [`${TRAIL_STORAGE_PREFIX}updated-at`]: String(state.updatedAt),
  };
}

/** The newer copy wins; a never-edited copy never overwrites an edited one. */
export function mergeTrails(local: TrailState, server: TrailState | null): TrailState {
  if (!server) return local;
  return server.updatedAt > local.updatedAt ? server : local;
}

export const SEPARATOR = "=".repeat(50);

/** The plain-text export: title, name, pt-BR date, then each phase with its answers. */
export function buildTrailText(state: TrailState, phases: readonly TrailPhase[], date: Date): string {
  const lines = [
    "TRILHA DE PROJETO - METODOLOGIA B1",
    `Projeto: ${state.projectName.trim() || "Nome não informado"}`,
    `Data: ${date.toLocaleDateString("pt-BR", { timeZone: "America/Sao_Paulo" })}`,
    SEPARATOR,
  ];
  phases.forEach((phase, index) => {
    lines.push(`${index + 1}. ${phase.title.toLocaleUpperCase("pt-BR")}`);
    lines.push(`Status: ${state.completed.includes(phase.id) ? "Concluída" : "Pendente"}`);
    phase.questions.forEach((question, q) => {
      const answer = state.answers[phase.id]?.[String(q)]?.trim();
      lines.push(`Pergunta: ${question}`);
      lines.push(`Resposta: ${answer || "Não respondida"}`);
    });
    lines.push(SEPARATOR);
  });
  return lines.join("\n") + "\n";
}

/** File name from the project name ('projeto' when empty). */
export function trailFileName(projectName: string, extension: "pdf" | "txt"): string {
  const slug = projectName
    .trim()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
  return `${slug || "projeto"}.${extension}`;
}
