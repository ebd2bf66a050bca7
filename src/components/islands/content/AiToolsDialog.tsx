import { Bot } from "lucide-react";
import { InfoDialog } from "./InfoDialog";

export interface AiTool {
  name: string;
  description: string;
  category: string;
}

/** Stage 5's 'Inteligência Artificial' row: a dialog listing the AI tools. */
export default function AiToolsDialog({ tools }: { tools: AiTool[] }) {
  return (
    <InfoDialog
      title="Inteligência Artificial"
      triggerClassName="flex w-full items-center gap-2 rounded-lg border border-dashed border-brand-500 px-3 py-2 text-left font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-slate-800"
      triggerContent={
        <>
          <Bot className="size-4" aria-hidden="true" /> Inteligência Artificial
          <span className="ml-auto text-xs text-slate-500">{tools.length} ferramentas</span>
        </>
      }
    >
      <ul className="space-y-3">
        {tools.map((tool) => (
          <li key={tool.name}>
            <p className="font-semibold">
              {tool.name} <span className="text-xs font-normal text-slate-500">· {tool.category}</span>
            </p>
            <p>{tool.description}</p>
          </li>
        ))}
      </ul>
    </InfoDialog>
  );
}
