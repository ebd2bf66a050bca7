import { useEffect, useState } from "react";
import { buildTrailText, progressPercent, setAnswer, setProjectName, toggleCompleted, trailFileName } from "../../../lib/trail/trail";
import { download } from "./trail-download";
import type { TrailPhaseProps } from "./trail-phase";
import { TrailDone, TrailExport } from "./TrailExport";
import { TrailPhaseCard } from "./TrailPhaseCard";
import { TrailPhaseList, TrailStepper } from "./TrailPhaseNav";
import { TrailSummary } from "./TrailSummary";
import { useTrailState, type TrailStatus } from "./useTrailState";

export type { TrailPhaseProps };

const NOTICES: Partial<Record<TrailStatus, string>> = {
  loading: "Carregando sua trilha...",
  unavailable: "Não foi possível carregar sua trilha agora. Recarregue a página para tentar de novo.",
  foreign: "Esta trilha foi aberta por outra conta. Recarregue a página.",
};

/** /trilha-interativa: the project trail, saved in the browser (per account) and on the user's account. */
export default function ProjectTrail({ phases, mentoringHref }: { phases: TrailPhaseProps[]; mentoringHref: string }) {
  const ids = phases.map((p) => p.id);
  const { state, setState, status, saved } = useTrailState(ids);
  const [current, setCurrent] = useState(0);
  const phase = phases[current]!;
  // A search result opens /trilha-interativa#fase-<id>: that phase, scrolled into view.
  useEffect(() => {
    const open = () => {
      const match = /^#fase-([a-z0-9-]+)$/.exec(window.location.hash);
      const index = match ? phases.findIndex((candidate) => candidate.id === match[1]) : -1;
      if (index === -1) return;
      setCurrent(index);
      document.getElementById("trail-phase-title")?.scrollIntoView({ block: "start" });
    };
    open();
    window.addEventListener("hashchange", open);
    return () => window.removeEventListener("hashchange", open);
  }, [phases]);
  const notice = NOTICES[status];

  const exportText = () =>
    download(trailFileName(state.projectName, "txt"), buildTrailText(state, phases, new Date()), "text/plain;charset=utf-8");
  // pdf-lib is loaded only when someone exports, keeping it out of the page's initial JS.
  const exportPdf = async () => {
    const { buildTrailPdf } = await import("../../../lib/trail/pdf");
    download(trailFileName(state.projectName, "pdf"), (await buildTrailPdf(state, phases, new Date())) as BlobPart, "application/pdf");
  };

  return (
    <div className="space-y-6">
      {notice && (
        <p role={status === "loading" ? "status" : "alert"} className="text-sm text-slate-700 dark:text-slate-300">
          {notice}
        </p>
      )}
      {/* Always in the page so screen readers hear the polite update when the text appears. */}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700 dark:text-slate-300">
        {saved ? "Salvo" : ""}
      </p>
      <fieldset disabled={status !== "ready"} className="min-w-0 space-y-6">
        <TrailSummary
          projectName={state.projectName}
          onProjectName={(name) => setState((s) => setProjectName(s, name))}
          completed={state.completed.length}
          total={phases.length}
          percent={progressPercent(state, phases.length)}
        />
        <TrailStepper phases={phases} current={current} onGo={setCurrent} />
        <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
          <TrailPhaseList phases={phases} current={current} completed={state.completed} onGo={setCurrent} />
          <TrailPhaseCard
            phase={phase}
            answers={state.answers[phase.id]}
            done={state.completed.includes(phase.id)}
            onAnswer={(index, text) => setState((s) => setAnswer(s, phase.id, index, text))}
            onToggleDone={() => setState((s) => toggleCompleted(s, phase.id, ids))}
          />
        </div>
        <TrailExport onPdf={exportPdf} onText={exportText} />
        {state.completed.length === phases.length && <TrailDone onPdf={exportPdf} mentoringHref={mentoringHref} />}
      </fieldset>
    </div>
  );
}
