import { useCallback } from "react";
import useEmblaCarousel from "embla-carousel-react";
import { ChevronLeft, ChevronRight } from "lucide-react";

export interface CarouselStep {
  number: number;
  title: string;
  description: string;
  responsible: string;
}

/** Sementezz cycle (md and up): Embla, looping, start-aligned; 2 slides on md, 3 on lg. */
export default function StepsCarousel({ steps }: { steps: CarouselStep[] }) {
  const [viewport, api] = useEmblaCarousel({ loop: true, align: "start" });
  const previous = useCallback(() => api?.scrollPrev(), [api]);
  const next = useCallback(() => api?.scrollNext(), [api]);
  return (
    <div role="region" aria-roledescription="carrossel" aria-label="Como funciona o programa" className="relative">
      <div ref={viewport} className="overflow-hidden">
        <div className="flex">
          {steps.map((step) => (
            <div
              key={step.number}
              role="group"
              aria-roledescription="slide"
              aria-label={`Etapa ${step.number} de ${steps.length}`}
              className="min-w-0 shrink-0 grow-0 basis-full pr-4 md:basis-1/2 lg:basis-1/3"
            >
              <article className="h-full rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-700 dark:bg-slate-900">
                <span className="flex size-9 items-center justify-center rounded-full bg-emerald-700 font-bold text-white">
                  {step.number}
                </span>
                <h3 className="mt-3 font-semibold">{step.title}</h3>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{step.description}</p>
                <p className="mt-3 text-xs font-semibold text-emerald-700 dark:text-emerald-300">Responsável: {step.responsible}</p>
              </article>
            </div>
          ))}
        </div>
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <button
          type="button"
          onClick={previous}
          aria-label="Etapa anterior"
          className="rounded-full border border-slate-300 p-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={next}
          aria-label="Próxima etapa"
          className="rounded-full border border-slate-300 p-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
