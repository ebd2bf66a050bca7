import { Info } from "lucide-react";
import { InfoDialog } from "./InfoDialog";
import { LinkAction } from "./LinkAction";

export interface StageTool {
  name: string;
  /** Explanation for the learn-more dialog ('Descrição não disponível…' when unknown). */
  description: string;
  link: string;
}

/** Suggested tools of one stage: download action + learn-more dialog each. */
export default function StageTools({ tools }: { tools: StageTool[] }) {
  return (
    <ul className="space-y-2">
      {tools.map((tool) => (
        <li
          key={tool.name}
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800"
        >
          <span className="font-medium">{tool.name}</span>
          <span className="flex gap-2">
            <LinkAction name={tool.name} link={tool.link} />
            <InfoDialog
              title={tool.name}
              triggerClassName="inline-flex items-center gap-1.5 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-700"
              triggerContent={
                <>
                  <Info className="size-4" aria-hidden="true" /> Saiba mais
                </>
              }
            >
              <p>{tool.description}</p>
            </InfoDialog>
          </span>
        </li>
      ))}
    </ul>
  );
}
