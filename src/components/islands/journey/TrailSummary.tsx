/** The project name field and the progress bar at the top of the trail. */
export function TrailSummary({
  projectName,
  onProjectName,
  completed,
  total,
  percent,
}: {
  projectName: string;
  onProjectName: (name: string) => void;
  completed: number;
  total: number;
  percent: number;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-700 dark:bg-slate-900">
      <label htmlFor="trail-project" className="mb-1 block text-sm font-semibold">
        Nome do projeto
      </label>
      <input
        id="trail-project"
        value={projectName}
        placeholder="Ex.: Novo checkout"
        onChange={(event) => onProjectName(event.target.value)}
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
          {completed} de {total} fases
        </span>
      </div>
    </div>
  );
}
