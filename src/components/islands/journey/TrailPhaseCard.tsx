import type { TrailState } from "../../../lib/trail/trail";
import type { TrailPhaseProps } from "./trail-phase";

/** The current phase: description, pillars, the questions to answer, tools, templates and the completion tick. */
export function TrailPhaseCard({
  phase,
  answers,
  done,
  onAnswer,
  onToggleDone,
}: {
  phase: TrailPhaseProps;
  answers: TrailState["answers"][string] | undefined;
  done: boolean;
  onAnswer: (index: number, text: string) => void;
  onToggleDone: () => void;
}) {
  return (
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
              value={answers?.[String(index)] ?? ""}
              onChange={(event) => onAnswer(index, event.target.value)}
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
        <input type="checkbox" className="size-5 accent-green-600" checked={done} onChange={onToggleDone} />
        Marcar esta fase como concluída
      </label>
    </section>
  );
}
