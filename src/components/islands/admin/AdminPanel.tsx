import { useCallback, useEffect, useState } from "react";
import { Tabs } from "radix-ui";
import { Settings, ScrollText } from "lucide-react";
import { Toaster, toast } from "sonner";
import { RolesTab } from "./RolesTab";
import type { ChecklistPage, RoleRow, UserRow } from "./types";
import { RoleBadge } from "./ui";
import { UsersTab } from "./UsersTab";

const TRIGGER =
  "rounded-md px-4 py-2 text-sm font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-300 dark:data-[state=active]:bg-slate-700 dark:data-[state=active]:text-white";

const INFO = [
  "Usuários podem ter vários perfis ao mesmo tempo.",
  "As permissões dos perfis são combinadas: a mais permissiva prevalece.",
  "Perfis do sistema (Admin, Líder, Visualizador) não podem ser excluídos.",
  "Perfis customizados podem ser criados e configurados com as páginas que liberam.",
  "Novos usuários recebem o perfil Visualizador por padrão.",
];

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

/** /admin-panel: overview, users, roles and system tabs (spec §2 Administrator panel). */
export default function AdminPanel() {
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
      <Toaster richColors closeButton duration={4000} visibleToasts={3} position="top-right" />
      <Tabs.Root defaultValue="overview">
        <Tabs.List aria-label="Seções do painel" className="mb-6 inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
          <Tabs.Trigger value="overview" className={TRIGGER}>
            Visão Geral
          </Tabs.Trigger>
          <Tabs.Trigger value="users" className={TRIGGER}>
            Usuários
          </Tabs.Trigger>
          <Tabs.Trigger value="roles" className={TRIGGER}>
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
            <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
              {INFO.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        </Tabs.Content>
        <Tabs.Content value="users">
          <UsersTab users={users} roles={roles} loading={loading} onChanged={reload} />
        </Tabs.Content>
        <Tabs.Content value="roles">
          <RolesTab roles={roles} pages={pages} loading={loading} onChanged={reload} />
        </Tabs.Content>
        <Tabs.Content value="system" className="grid gap-4 md:grid-cols-2">
          {[
            { title: "Configurações", Icon: Settings },
            { title: "Logs do Sistema", Icon: ScrollText },
          ].map(({ title, Icon }) => (
            <div
              key={title}
              aria-disabled="true"
              className="cursor-not-allowed rounded-xl border border-slate-200 p-5 opacity-60 dark:border-slate-700"
            >
              <Icon className="mb-2 size-6" aria-hidden="true" />
              <h2 className="font-semibold">{title}</h2>
              <span className="mt-2 inline-block rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800">
                Em Desenvolvimento
              </span>
            </div>
          ))}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
