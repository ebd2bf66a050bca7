import { Check, ChevronLeft, ChevronRight } from "lucide-react";
import type { TrailPhaseProps } from "./trail-phase";

const stepButton =
  "inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-semibold disabled:opacity-40 dark:border-slate-600";

/** 'Fase anterior' / 'Próxima fase' with the current phase between them. */
export function TrailStepper({ phases, current, onGo }: { phases: TrailPhaseProps[]; current: number; onGo: (index: number) => void }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <button type="button" disabled={current === 0} onClick={() => onGo(current - 1)} className={stepButton}>
        <ChevronLeft className="size-4" aria-hidden="true" /> Fase anterior
      </button>
      <div className="text-center">
        <p className="font-semibold">{phases[current]!.title}</p>
        <p className="text-xs text-slate-500">
          Fase {current + 1} de {phases.length}
        </p>
      </div>
      <button type="button" disabled={current === phases.length - 1} onClick={() => onGo(current + 1)} className={stepButton}>
        Próxima fase <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

/** The side list of phases, each marked when completed. */
export function TrailPhaseList({
  phases,
  current,
  completed,
  onGo,
}: {
  phases: TrailPhaseProps[];
  current: number;
  completed: readonly string[];
  onGo: (index: number) => void;
}) {
  return (
    <nav aria-label="Fases da trilha">
      <ol className="space-y-1">
        {phases.map((p, index) => {
          const complete = completed.includes(p.id);
          return (
            <li key={p.id}>
              <button
                type="button"
                aria-current={index === current ? "step" : undefined}
                onClick={() => onGo(index)}
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
  );
}
