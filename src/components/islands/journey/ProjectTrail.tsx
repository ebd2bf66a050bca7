import { useEffect, useRef, useState } from "react";
import { Check, ChevronLeft, ChevronRight, Download, FileText, PartyPopper } from "lucide-react";
import {
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
  type TrailState,
} from "../../../lib/trail";

export interface TrailPhaseProps {
  id: string;
  title: string;
  description: string;
  pillars: string[];
  questions: string[];
  tools: string[];
  templates: string[];
  example: string;
  /** Tailwind classes of the phase colour. */
  accent: string;
}

function download(name: string, data: BlobPart, type: string) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** /trilha-interativa: the project trail, saved in the browser and on the user's account. */
export default function ProjectTrail({ phases, mentoringHref }: { phases: TrailPhaseProps[]; mentoringHref: string }) {
  const ids = phases.map((p) => p.id);
  const [state, setState] = useState<TrailState>(emptyTrail);
  const [current, setCurrent] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const local = parseStoredTrail((key) => window.localStorage.getItem(key), ids);
    setState(local);
    setLoaded(true);
    fetch("/api/trail", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((data: { trail: TrailState | null } | null) => {
        if (!data?.trail) return;
        const server = {
          ...data.trail,
          completed: data.trail.completed ?? [],
          answers: data.trail.answers ?? {},
          projectName: data.trail.projectName ?? "",
        };
        setState((now) => mergeTrails(now, server));
      })
      .catch((error: unknown) => console.log("Trilha: cópia do servidor indisponível", error));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!loaded) return;
    for (const [key, value] of Object.entries(serializeTrail(state))) window.localStorage.setItem(key, value);
    if (state.updatedAt === 0) return;
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      fetch("/api/trail", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(state) }).catch(
        (error: unknown) => console.log("Trilha: não foi possível salvar no servidor agora", error),
      );
    }, 400);
  }, [state, loaded]);

  const phase = phases[current]!;
  const done = state.completed.includes(phase.id);
  const percent = progressPercent(state, phases.length);
  const allDone = state.completed.length === phases.length;

  const exportText = () =>
    download(trailFileName(state.projectName, "txt"), buildTrailText(state, phases, new Date()), "text/plain;charset=utf-8");
  // pdf-lib is loaded only when someone exports, keeping it out of the page's initial JS.
  const exportPdf = async () => {
    const { buildTrailPdf } = await import("../../../lib/trail-pdf");
    download(trailFileName(state.projectName, "pdf"), (await buildTrailPdf(state, phases, new Date())) as BlobPart, "application/pdf");
  };

  return (
    <div className="space-y-6">
      <div className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-700 dark:bg-slate-900">
        <label htmlFor="trail-project" className="mb-1 block text-sm font-semibold">
          Nome do projeto
        </label>
        <input
          id="trail-project"
          value={state.projectName}
          placeholder="Ex.: Novo checkout"
          onChange={(event) => setState((s) => setProjectName(s, event.target.value))}
          className="w-full rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
        />
        <div className="mt-4 flex items-center gap-3">
          <div
            role="progressbar"
            aria-label="Progresso da trilha"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div className="h-full bg-green-600 transition-all" style={{ width: `${percent}%` }} />
          </div>
          <span className="text-sm font-semibold whitespace-nowrap">
            {state.completed.length} de {phases.length} fases
          </span>
        </div>
      </div>

      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          disabled={current === 0}
          onClick={() => setCurrent((c) => c - 1)}
          className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-semibold disabled:opacity-40 dark:border-slate-600"
        >
          <ChevronLeft className="size-4" aria-hidden="true" /> Fase anterior
        </button>
        <div className="text-center">
          <p className="font-semibold">{phase.title}</p>
          <p className="text-xs text-slate-500">
            Fase {current + 1} de {phases.length}
          </p>
        </div>
        <button
          type="button"
          disabled={current === phases.length - 1}
          onClick={() => setCurrent((c) => c + 1)}
          className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-semibold disabled:opacity-40 dark:border-slate-600"
        >
          Próxima fase <ChevronRight className="size-4" aria-hidden="true" />
        </button>
      </div>

      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <nav aria-label="Fases da trilha">
          <ol className="space-y-1">
            {phases.map((p, index) => {
              const complete = state.completed.includes(p.id);
              return (
                <li key={p.id}>
                  <button
                    type="button"
                    aria-current={index === current ? "step" : undefined}
                    onClick={() => setCurrent(index)}
                    className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm ${index === current ? "bg-brand-50 ring-1 ring-brand-500 dark:bg-slate-800" : "hover:bg-slate-50 dark:hover:bg-slate-800"}`}
                  >
                    <span
                      className={`flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold ${complete ? "bg-green-700 text-white" : p.accent}`}
                    >
                      {complete ? <Check className="size-4" aria-label="Concluída" /> : index + 1}
                    </span>
                    <span>
                      <span className="block font-semibold">{p.title}</span>
                      <span className="block text-xs text-slate-600 dark:text-slate-400">{p.pillars.join(" + ")}</span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ol>
        </nav>

        <section
          aria-labelledby="trail-phase-title"
          className="rounded-xl border border-slate-200 bg-white p-6 dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <h2 id="trail-phase-title" className="text-xl font-bold">
              {phase.title}
            </h2>
            {done && <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">Concluída</span>}
          </div>
          <p className="mb-3 text-slate-700 dark:text-slate-300">{phase.description}</p>
          <div className="mb-5 flex flex-wrap gap-2">
            {phase.pillars.map((pillar) => (
              <span key={pillar} className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${phase.accent}`}>
                {pillar}
              </span>
            ))}
          </div>
          <h3 className="mb-2 font-semibold">Perguntas-chave</h3>
          <div className="space-y-4">
            {phase.questions.map((question, index) => (
              <div key={question}>
                <label htmlFor={`answer-${phase.id}-${index}`} className="mb-1 block text-sm font-medium">
                  {question}
                </label>
                <textarea
                  id={`answer-${phase.id}-${index}`}
                  placeholder="Digite sua resposta aqui..."
                  value={state.answers[phase.id]?.[String(index)] ?? ""}
                  onChange={(event) => setState((s) => setAnswer(s, phase.id, index, event.target.value))}
                  className="min-h-[100px] w-full rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-950"
                />
              </div>
            ))}
          </div>
          <div className="mt-5 grid gap-4 md:grid-cols-2">
            <div>
              <h3 className="mb-1 text-sm font-semibold">Ferramentas</h3>
              <ul className="list-disc pl-5 text-sm">
                {phase.tools.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            </div>
            <div>
              <h3 className="mb-1 text-sm font-semibold">Templates</h3>
              <ul className="list-disc pl-5 text-sm">
                {phase.templates.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            </div>
          </div>
          <div className="mt-5 rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-800">
            <p className="font-semibold">Exemplo prático</p>
            <p>{phase.example}</p>
          </div>
          <label className="mt-5 flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              className="size-5 accent-green-600"
              checked={done}
              onChange={() => setState((s) => toggleCompleted(s, phase.id, ids))}
            />
            Marcar esta fase como concluída
          </label>
        </section>
      </div>

      <section aria-labelledby="trail-export" className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
        <h2 id="trail-export" className="mb-1 font-semibold">
          Exportar
        </h2>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">Baixe a trilha com o status e as respostas de cada fase.</p>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={exportPdf}
            className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            <Download className="size-4" aria-hidden="true" /> Baixar PDF do projeto
          </button>
          <button
            type="button"
            onClick={exportText}
            className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-4 py-2 font-semibold dark:border-slate-600"
          >
            <FileText className="size-4" aria-hidden="true" /> Baixar texto (.txt)
          </button>
        </div>
      </section>

      {allDone && (
        <section aria-labelledby="trail-done" className="rounded-xl bg-gradient-to-br from-green-700 to-emerald-700 p-6 text-white">
          <h2 id="trail-done" className="flex items-center gap-2 text-2xl font-bold">
            <PartyPopper className="size-7" aria-hidden="true" /> Parabéns! Projeto Completo
          </h2>
          <p className="mt-1">Você concluiu as 8 fases da Metodologia B1.</p>
          <div className="mt-4 flex flex-wrap gap-2">
            <button type="button" onClick={exportPdf} className="rounded-md bg-white px-4 py-2 font-semibold text-green-700">
              Baixar PDF Completo
            </button>
            <a href={mentoringHref} className="rounded-md border border-white px-4 py-2 font-semibold">
              Solicitar Mentoria B1
            </a>
          </div>
        </section>
      )}
    </div>
  );
}
