import { lazy, Suspense, useMemo, useRef, useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { SearchField } from "../ui/SearchField";
import { filterUsers } from "../../../lib/admin/labels";
import type { RoleRow, UserRow } from "./types";
import { callAdmin, ConfirmDialog } from "./ui";
import { RoleBadge } from "./RoleBadge";
import { ghostButton, primaryButton } from "./styles";
import type { Editing } from "./UserDialog";
import { UserSecurityActions } from "./UserSecurityActions";

const loadUserDialog = () => import("./UserDialog");
const UserDialog = lazy(loadUserDialog);
const preload = () => void loadUserDialog();

interface Props {
  users: UserRow[];
  roles: RoleRow[];
  loading: boolean;
  onChanged: () => Promise<void>;
  /** The signed-in admin's e-mail: their own row offers no 'Excluir'. */
  currentEmail: string | null;
}

export default function UsersTab({ users, roles, loading, onChanged, currentEmail }: Props) {
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<Editing | null>(null);
  const visible = useMemo(() => filterUsers(users, search), [users, search]);

  const summary = useRef<HTMLParagraphElement>(null);

  async function remove(user: UserRow) {
    if (!(await callAdmin("DELETE", `/api/admin/users/${user.id}`, {}, "Usuário excluído com sucesso", "Erro ao excluir usuário"))) return;
    await onChanged();
    // The deleted row's button is gone: the focus goes to the list's summary, which now reads the new count.
    summary.current?.focus();
  }

  return (
    <section aria-label="Usuários">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="w-full sm:max-w-sm">
          <SearchField label="Buscar usuários" placeholder="Buscar usuários..." value={search} onChange={setSearch} />
        </div>
        <button
          type="button"
          className={primaryButton}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={() => setEditing({ kind: "new" })}
        >
          <Plus className="size-4" aria-hidden="true" /> Novo Usuário
        </button>
      </div>
      <p ref={summary} tabIndex={-1} className="mb-2 text-sm text-slate-600 focus:outline-2 focus:outline-brand-600 dark:text-slate-300">
        {visible.length === 1 ? "1 usuário" : `${visible.length} usuários`}
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th className="px-3 py-2">Nome</th>
              <th className="px-3 py-2">E-mail</th>
              <th className="px-3 py-2">Perfis</th>
              <th className="px-3 py-2 text-right">Ações</th>
            </tr>
          </thead>
          <tbody>
            {loading && (
              <tr>
                <td colSpan={4} className="px-3 py-6 text-center text-slate-500">
                  Carregando...
                </td>
              </tr>
            )}
            {visible.map((user) => (
              <tr key={user.id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2 font-medium">{user.fullName || "N/A"}</td>
                <td className="px-3 py-2">{user.email || "N/A"}</td>
                <td className="px-3 py-2">
                  <div className="flex flex-wrap gap-1">
                    {user.roles.length ? (
                      user.roles.map((role) => <RoleBadge key={role} role={role} />)
                    ) : (
                      <span className="text-slate-400">N/A</span>
                    )}
                  </div>
                </td>
                <td className="px-3 py-2">
                  <div className="flex justify-end gap-1">
                    <button
                      type="button"
                      className={ghostButton}
                      aria-label={`Editar ${user.email}`}
                      onPointerEnter={preload}
                      onFocus={preload}
                      onClick={() => setEditing({ kind: "edit", user })}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    <UserSecurityActions user={user} />
                    {user.email !== currentEmail && (
                      <ConfirmDialog
                        triggerLabel={`Excluir ${user.email}`}
                        triggerClassName={ghostButton}
                        triggerContent={<Trash2 className="size-4 text-red-600" aria-hidden="true" />}
                        title="Excluir usuário"
                        message={`Tem certeza que deseja excluir ${user.fullName || "este usuário"} (${user.email})? A conta e as sessões dela serão apagadas; o log de auditoria é mantido.`}
                        confirmLabel="Excluir"
                        onConfirm={() => remove(user)}
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
            {!loading && visible.length === 0 && (
              <tr>
                <td colSpan={4} className="px-3 py-6 text-center text-slate-500">
                  Nenhum usuário encontrado
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {editing && (
        <Suspense fallback={null}>
          <UserDialog
            key={editing.kind === "edit" ? editing.user.id : "new"}
            editing={editing}
            roles={roles}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void onChanged();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
