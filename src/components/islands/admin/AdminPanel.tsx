import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from "react";
import { Tabs } from "radix-ui";
import { Toasts, toast } from "../ui/toast";
import type { ChecklistPage, RoleRow, UserRow } from "./types";
import { RoleBadge } from "./RoleBadge";

// The users and roles tabs are chunks of their own, fetched when the admin points at or opens the tab.
const loadUsersTab = () => import("./UsersTab");
const loadRolesTab = () => import("./RolesTab");
const UsersTab = lazy(loadUsersTab);
const RolesTab = lazy(loadRolesTab);
const preloadUsers = () => void loadUsersTab();
const preloadRoles = () => void loadRolesTab();
const tabFallback = <p className="py-6 text-center text-sm text-slate-500">Carregando...</p>;

const TRIGGER =
  "rounded-md px-4 py-2 text-sm font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-300 dark:data-[state=active]:bg-slate-700 dark:data-[state=active]:text-white";

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

/**
 * /admin-panel: overview, users, roles and system tabs (spec §2 Administrator panel). The static parts
 * (the overview's notes, the system tab) come from the page as server-rendered slots.
 */
export default function AdminPanel({ info, system }: { info?: ReactNode; system?: ReactNode }) {
  const [loading, setLoading] = useState(true);
  const [me, setMe] = useState<{ email: string; roles: string[] } | null>(null);
  const [users, setUsers] = useState<UserRow[]>([]);
  const [roles, setRoles] = useState<RoleRow[]>([]);
  const [pages, setPages] = useState<ChecklistPage[]>([]);

  const reload = useCallback(async () => {
    setLoading(true);
    await Promise.all([
      getJson<{ users: UserRow[] }>("/api/admin/users")
        .then((data) => setUsers(data.users))
        .catch(() => toast.error("Erro", { description: "Erro ao carregar usuários" })),
      getJson<{ roles: RoleRow[]; pages: ChecklistPage[] }>("/api/admin/roles")
        .then((data) => {
          setRoles(data.roles);
          setPages(data.pages);
        })
        .catch(() => toast.error("Erro", { description: "Erro ao carregar perfis" })),
    ]);
    setLoading(false);
  }, []);

  useEffect(() => {
    getJson<{ email: string; roles: string[] }>("/api/admin/me").then(setMe, () => setMe(null));
    void reload();
  }, [reload]);

  return (
    <div>
      <Toasts />
      <Tabs.Root defaultValue="overview">
        <Tabs.List aria-label="Seções do painel" className="mb-6 inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
          <Tabs.Trigger value="overview" className={TRIGGER}>
            Visão Geral
          </Tabs.Trigger>
          <Tabs.Trigger value="users" className={TRIGGER} onPointerEnter={preloadUsers} onFocus={preloadUsers}>
            Usuários
          </Tabs.Trigger>
          <Tabs.Trigger value="roles" className={TRIGGER} onPointerEnter={preloadRoles} onFocus={preloadRoles}>
            Perfis
          </Tabs.Trigger>
          <Tabs.Trigger value="system" className={TRIGGER}>
            Sistema
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview" className="grid gap-4 md:grid-cols-2">
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
        </Tabs.Content>
        <Tabs.Content value="users">
          <Suspense fallback={tabFallback}>
            <UsersTab users={users} roles={roles} loading={loading} onChanged={reload} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="roles">
          <Suspense fallback={tabFallback}>
            <RolesTab roles={roles} pages={pages} loading={loading} onChanged={reload} />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="system" className="grid gap-4 md:grid-cols-2">
          {system}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
