import type { ReactNode } from "react";
import { Tab, TabList, TabPanel, Tabs } from "react-tabs";
import { TAB, TAB_LIST } from "../ui/tabs";

/** Pillar P3's tabs; both panels arrive as server-rendered slots ('overview', 'roles'). */
export default function PillarTabs({ overview, roles }: { overview?: ReactNode; roles?: ReactNode }) {
  return (
    <Tabs>
      <TabList aria-label="Papéis e Responsabilidades" className={`${TAB_LIST} mb-4`}>
        <Tab className={TAB}>Visão Geral</Tab>
        <Tab className={TAB}>Papéis Detalhados</Tab>
      </TabList>
      <TabPanel>{overview}</TabPanel>
      <TabPanel>{roles}</TabPanel>
    </Tabs>
  );
}
