import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from "react";
import { Tab, TabList, TabPanel, Tabs } from "react-tabs";
import { TAB, TAB_LIST } from "../ui/tabs";
import { Toasts, toast } from "../ui/toast";
import type { ChecklistPage, RoleRow } from "./types";
import { RoleBadge } from "./RoleBadge";
import { FirstSteps } from "./FirstSteps";
import { readAddress, useAddress, writeAddress } from "./address-state";

/** The tabs as the address names them (`/admin-panel?aba=usuarios`). */
const TAB_NAMES = ["visao-geral", "usuarios", "perfis", "sistema", "integracoes"] as const;
const tabFromAddress = () => Math.max(0, TAB_NAMES.indexOf(readAddress("aba") as (typeof TAB_NAMES)[number]));

// The users and roles tabs are chunks of their own, fetched when the admin points at or opens the tab.
const loadUsersTab = () => import("./UsersTab");
const loadRolesTab = () => import("./RolesTab");
const loadIntegrationsTab = () => import("./IntegrationsTab");
const UsersTab = lazy(loadUsersTab);
const IntegrationsTab = lazy(loadIntegrationsTab);
const preloadIntegrations = () => void loadIntegrationsTab();
const RolesTab = lazy(loadRolesTab);
const preloadUsers = () => void loadUsersTab();
const preloadRoles = () => void loadRolesTab();
const tabFallback = <p className="py-6 text-center text-sm text-slate-500">Carregando...</p>;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

/**
 * /admin-panel: overview, users, roles, system and integrations (audit streaming) tabs. The static parts
 * (the overview's notes, the system tab) come from the page as server-rendered slots.
 */
export default function AdminPanel({ info, system }: { info?: ReactNode; system?: ReactNode }) {
  const [loading, setLoading] = useState(true);
  const [me, setMe] = useState<{ email: string; roles: string[] } | null>(null);
  const [roles, setRoles] = useState<RoleRow[]>([]);
  const [pages, setPages] = useState<ChecklistPage[]>([]);
  const [tab, setTab] = useState(0);
  useAddress(() => setTab(tabFromAddress()));

  const selectTab = (index: number) => {
    setTab(index);
    // Another tab is a step Back returns from; the users tab's own search and page stay only on it.
    writeAddress(
      index === 1 ? { aba: TAB_NAMES[index]! } : { aba: index === 0 ? "" : TAB_NAMES[index]!, q: "", perfil: "", pagina: "" },
      "push",
    );
  };

  const reload = useCallback(async () => {
    setLoading(true);
    await getJson<{ roles: RoleRow[]; pages: ChecklistPage[] }>("/api/admin/roles")
      .then((data) => {
        setRoles(data.roles);
        setPages(data.pages);
      })
      .catch(() => toast.error("Erro", { description: "Erro ao carregar perfis" }));
    setLoading(false);
  }, []);

  useEffect(() => {
    getJson<{ email: string; roles: string[] }>("/api/admin/me").then(setMe, () => setMe(null));
    void reload();
  }, [reload]);

  return (
    <div>
      <Toasts />
      <Tabs selectedIndex={tab} onSelect={selectTab}>
        <TabList aria-label="Seções do painel" className={`${TAB_LIST} mb-6`}>
          <Tab className={TAB}>Visão Geral</Tab>
          <Tab className={TAB} onPointerEnter={preloadUsers} onFocus={preloadUsers}>
            Usuários
          </Tab>
          <Tab className={TAB} onPointerEnter={preloadRoles} onFocus={preloadRoles}>
            Perfis
          </Tab>
          <Tab className={TAB}>Sistema</Tab>
          <Tab className={TAB} onPointerEnter={preloadIntegrations} onFocus={preloadIntegrations}>
            Integrações
          </Tab>
        </TabList>
        <TabPanel className="grid gap-4 md:grid-cols-2">
          <FirstSteps />
          <div className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
            <h2 className="mb-3 font-semibold">Seus perfis</h2>
            <div className="mb-3 flex flex-wrap gap-2">
              {me?.roles.map((role) => (
                <RoleBadge key={role} role={role} />
              ))}
            </div>
            <p className="text-sm text-slate-600 dark:text-slate-300">{me?.email}</p>
          </div>
          <div className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
            <h2 className="mb-3 font-semibold">Informações</h2>
            {info}
          </div>
          <div className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
            <h2 className="mb-2 font-semibold">Logs de Auditoria</h2>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">Acessos, alterações administrativas e tentativas bloqueadas.</p>
            <a
              href="/audit-logs"
              className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800 dark:text-sky-300"
            >
              Abrir Logs de Auditoria
            </a>
          </div>
          <div className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
            <h2 className="mb-2 font-semibold">Relatório de Leitura</h2>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
              Quem confirmou cada página de leitura obrigatória, por perfil e por pessoa, com CSV.
            </p>
            <a
              href="/leitura/relatorio"
              className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800 dark:text-sky-300"
            >
              Abrir Relatório de Leitura
            </a>
          </div>
        </TabPanel>
        <TabPanel>
          <Suspense fallback={tabFallback}>
            <UsersTab roles={roles} onChanged={reload} currentEmail={me?.email ?? null} />
          </Suspense>
        </TabPanel>
        <TabPanel>
          <Suspense fallback={tabFallback}>
            <RolesTab roles={roles} pages={pages} loading={loading} onChanged={reload} />
          </Suspense>
        </TabPanel>
        <TabPanel className="grid gap-4 md:grid-cols-2">{system}</TabPanel>
        <TabPanel>
          <Suspense fallback={tabFallback}>
            <IntegrationsTab />
          </Suspense>
        </TabPanel>
      </Tabs>
    </div>
  );
}
