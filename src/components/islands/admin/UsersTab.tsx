import { useMemo, useState, type FormEvent } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { SearchField } from "../ui/SearchField";
import { filterUsers } from "../../../lib/admin/labels";
import type { RoleRow, UserRow } from "./types";
import { callAdmin, CheckItem, ConfirmDialog, FormDialog, ghostButton, inputClass, primaryButton, RoleBadge } from "./ui";

interface Props {
  users: UserRow[];
  roles: RoleRow[];
  loading: boolean;
  onChanged: () => void;
}

type Editing = { kind: "new" } | { kind: "edit"; user: UserRow } | null;

export function UsersTab({ users, roles, loading, onChanged }: Props) {
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<Editing>(null);
  const visible = useMemo(() => filterUsers(users, search), [users, search]);

  async function remove(user: UserRow) {
    if (await callAdmin("DELETE", `/api/admin/users/${user.id}`, {}, "Usuário excluído com sucesso", "Erro ao excluir usuário"))
      onChanged();
  }

  return (
    <section aria-label="Usuários">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="w-full sm:max-w-sm">
          <SearchField label="Buscar usuários" placeholder="Buscar usuários..." value={search} onChange={setSearch} />
        </div>
        <button type="button" className={primaryButton} onClick={() => setEditing({ kind: "new" })}>
          <Plus className="size-4" aria-hidden="true" /> Novo Usuário
        </button>
      </div>
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
                      onClick={() => setEditing({ kind: "edit", user })}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    <ConfirmDialog
                      trigger={
                        <button type="button" className={ghostButton} aria-label={`Excluir ${user.email}`}>
                          <Trash2 className="size-4 text-red-600" aria-hidden="true" />
                        </button>
                      }
                      title="Excluir usuário"
                      message="Tem certeza que deseja excluir este usuário?"
                      confirmLabel="Excluir"
                      onConfirm={() => remove(user)}
                    />
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
        <UserDialog
          key={editing.kind === "edit" ? editing.user.id : "new"}
          editing={editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
    </section>
  );
}

function UserDialog({
  editing,
  roles,
  onClose,
  onSaved,
}: {
  editing: NonNullable<Editing>;
  roles: RoleRow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const existing = editing.kind === "edit" ? editing.user : null;
  const [email, setEmail] = useState(existing?.email ?? "");
  const [fullName, setFullName] = useState(existing?.fullName ?? "");
  const [password, setPassword] = useState("");
  const [selected, setSelected] = useState<string[]>(existing?.roles ?? []);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const ok = existing
      ? await callAdmin(
          "PUT",
          `/api/admin/users/${existing.id}`,
          { fullName, roles: selected },
          "Usuário atualizado com sucesso",
          "Erro ao atualizar usuário",
        )
      : await callAdmin(
          "POST",
          "/api/admin/users",
          { email, fullName, password, roles: selected },
          "Usuário criado com sucesso",
          "Erro ao criar usuário",
        );
    setBusy(false);
    if (ok) onSaved();
  }

  const toggle = (name: string, on: boolean) =>
    setSelected((current) => (on ? [...current, name] : current.filter((role) => role !== name)));

  return (
    <FormDialog open onOpenChange={(open) => !open && onClose()} title={existing ? "Editar Usuário" : "Novo Usuário"}>
      <form onSubmit={submit} className="space-y-4">
        <fieldset disabled={busy} className="space-y-4">
          <div>
            <label htmlFor="user-email" className="mb-1 block text-sm font-medium">
              E-mail
            </label>
            <input
              id="user-email"
              type="email"
              className={inputClass}
              value={email}
              readOnly={Boolean(existing)}
              disabled={Boolean(existing)}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="user-name" className="mb-1 block text-sm font-medium">
              Nome Completo
            </label>
            <input id="user-name" className={inputClass} value={fullName} onChange={(e) => setFullName(e.target.value)} />
          </div>
          {!existing && (
            <div>
              <label htmlFor="user-password" className="mb-1 block text-sm font-medium">
                Senha
              </label>
              <input
                id="user-password"
                type="password"
                placeholder="Senha temporária"
                className={inputClass}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
          )}
          <div>
            <p className="mb-1 text-sm font-medium">Perfis</p>
            <div className="max-h-60 overflow-y-auto rounded-md border border-slate-200 p-1 dark:border-slate-700">
              {roles.map((role) => (
                <CheckItem
                  key={role.id}
                  id={`user-role-${role.id}`}
                  checked={selected.includes(role.name)}
                  onChange={(on) => toggle(role.name, on)}
                  title={role.name}
                  subtitle={role.description}
                />
              ))}
            </div>
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className={ghostButton} onClick={onClose}>
              Cancelar
            </button>
            <button type="submit" className={primaryButton}>
              {existing ? "Salvar Alterações" : "Criar Usuário"}
            </button>
          </div>
        </fieldset>
      </form>
    </FormDialog>
  );
}
