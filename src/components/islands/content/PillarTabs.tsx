import type { ReactNode } from "react";
import { Tabs } from "radix-ui";

const TRIGGER =
  "rounded-md px-4 py-2 text-sm font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-300 dark:data-[state=active]:bg-slate-700 dark:data-[state=active]:text-white";

/** Pillar P3's tabs; both panels arrive as server-rendered slots ('overview', 'roles'). */
export default function PillarTabs({ overview, roles }: { overview?: ReactNode; roles?: ReactNode }) {
  return (
    <Tabs.Root defaultValue="visao-geral">
      <Tabs.List aria-label="Papéis e Responsabilidades" className="mb-4 inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
        <Tabs.Trigger value="visao-geral" className={TRIGGER}>
          Visão Geral
        </Tabs.Trigger>
        <Tabs.Trigger value="papeis" className={TRIGGER}>
          Papéis Detalhados
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="visao-geral">{overview}</Tabs.Content>
      <Tabs.Content value="papeis">{roles}</Tabs.Content>
    </Tabs.Root>
  );
}
