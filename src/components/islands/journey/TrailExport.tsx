import { Download, FileText, PartyPopper } from "lucide-react";

/** The export buttons (PDF and text). */
export function TrailExport({ onPdf, onText }: { onPdf: () => void; onText: () => void }) {
  return (
    <section aria-labelledby="trail-export" className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
      <h2 id="trail-export" className="mb-1 font-semibold">
        Exportar
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">Baixe a trilha com o status e as respostas de cada fase.</p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onPdf}
          className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
        >
          <Download className="size-4" aria-hidden="true" /> Baixar PDF do projeto
        </button>
        <button
          type="button"
          onClick={onText}
          className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-4 py-2 font-semibold dark:border-slate-600"
        >
          <FileText className="size-4" aria-hidden="true" /> Baixar texto (.txt)
        </button>
      </div>
    </section>
  );
}

/** Shown when every phase is complete: the full PDF and a mentoring request. */
export function TrailDone({ onPdf, mentoringHref }: { onPdf: () => void; mentoringHref: string }) {
  return (
    <section aria-labelledby="trail-done" className="rounded-xl bg-gradient-to-br from-green-700 to-emerald-700 p-6 text-white">
      <h2 id="trail-done" className="flex items-center gap-2 text-2xl font-bold">
        <PartyPopper className="size-7" aria-hidden="true" /> Parabéns! Projeto Completo
      </h2>
      <p className="mt-1">Você concluiu as 8 fases da Metodologia B1.</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="button" onClick={onPdf} className="rounded-md bg-white px-4 py-2 font-semibold text-green-700">
          Baixar PDF Completo
        </button>
        <a href={mentoringHref} className="rounded-md border border-white px-4 py-2 font-semibold">
          Solicitar Mentoria B1
        </a>
      </div>
    </section>
  );
}
