import { useState, type FormEvent } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import type { ChecklistPage, RoleRow } from "./types";
import { callAdmin, CheckItem, ConfirmDialog, FormDialog, ghostButton, inputClass, primaryButton } from "./ui";

interface Props {
  roles: RoleRow[];
  pages: ChecklistPage[];
  loading: boolean;
  onChanged: () => void;
}

type Editing = { kind: "new" } | { kind: "edit"; role: RoleRow } | null;

export function RolesTab({ roles, pages, loading, onChanged }: Props) {
  const [editing, setEditing] = useState<Editing>(null);

  async function remove(role: RoleRow) {
    if (await callAdmin("DELETE", `/api/admin/roles/${role.id}`, {}, "Perfil excluído com sucesso", "Erro ao excluir perfil")) onChanged();
  }

  return (
    <section aria-label="Perfis">
      <div className="mb-4 flex items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">{roles.length} perfis configurados</p>
        <button type="button" className={primaryButton} onClick={() => setEditing({ kind: "new" })}>
          <Plus className="size-4" aria-hidden="true" /> Novo Perfil
        </button>
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th className="px-3 py-2">Nome</th>
              <th className="px-3 py-2">Descrição</th>
              <th className="px-3 py-2">Tipo</th>
              <th className="px-3 py-2">Usuários</th>
              <th className="px-3 py-2">Páginas</th>
              <th className="px-3 py-2 text-right">Ações</th>
            </tr>
          </thead>
          <tbody>
            {loading && (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-slate-500">
                  Carregando...
                </td>
              </tr>
            )}
            {roles.map((role) => (
              <tr key={role.id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2 font-medium">{role.name}</td>
                <td className="px-3 py-2 text-slate-600 dark:text-slate-300">{role.description || "N/A"}</td>
                <td className="px-3 py-2">{role.isSystem ? "Sistema" : "Customizado"}</td>
                <td className="px-3 py-2">{role.userCount}</td>
                <td className="px-3 py-2">{role.pages.length}</td>
                <td className="px-3 py-2">
                  <div className="flex justify-end gap-1">
                    <button
                      type="button"
                      className={ghostButton}
                      aria-label={`Editar perfil ${role.name}`}
                      onClick={() => setEditing({ kind: "edit", role })}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    {!role.isSystem && (
                      <ConfirmDialog
                        trigger={
                          <button type="button" className={ghostButton} aria-label={`Excluir perfil ${role.name}`}>
                            <Trash2 className="size-4 text-red-600" aria-hidden="true" />
                          </button>
                        }
                        title="Excluir perfil"
                        message={`Tem certeza que deseja excluir o perfil "${role.name}"? Todos os usuários com este perfil perderão os acessos que ele concede.`}
                        confirmLabel="Excluir"
                        onConfirm={() => remove(role)}
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && (
        <RoleDialog
          key={editing.kind === "edit" ? editing.role.id : "new"}
          role={editing.kind === "edit" ? editing.role : null}
          pages={pages}
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

function RoleDialog({
  role,
  pages,
  onClose,
  onSaved,
}: {
  role: RoleRow | null;
  pages: ChecklistPage[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(role?.name ?? "");
  const [description, setDescription] = useState(role?.description ?? "");
  const [selected, setSelected] = useState<string[]>(role?.pages ?? []);
  const [busy, setBusy] = useState(false);
  const locked = new Set(role?.lockedPages ?? []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = { name, description, pages: selected };
    const ok = role
      ? await callAdmin("PUT", `/api/admin/roles/${role.id}`, body, "Perfil atualizado com sucesso", "Erro ao atualizar perfil")
      : await callAdmin("POST", "/api/admin/roles", body, "Perfil criado com sucesso", "Erro ao criar perfil");
    setBusy(false);
    if (ok) onSaved();
  }

  const toggle = (path: string, on: boolean) => setSelected((current) => (on ? [...current, path] : current.filter((p) => p !== path)));

  return (
    <FormDialog open onOpenChange={(open) => !open && onClose()} title={role ? "Editar Perfil" : "Novo Perfil"}>
      <form onSubmit={submit} className="space-y-4">
        <fieldset disabled={busy} className="space-y-4">
          <div>
            <label htmlFor="role-name" className="mb-1 block text-sm font-medium">
              Nome do Perfil
            </label>
            <input id="role-name" className={inputClass} value={name} disabled={role?.isSystem} onChange={(e) => setName(e.target.value)} />
            {role?.isSystem && <p className="mt-1 text-xs text-slate-500">Nome não pode ser alterado em perfis do sistema</p>}
          </div>
          <div>
            <label htmlFor="role-description" className="mb-1 block text-sm font-medium">
              Descrição
            </label>
            <textarea
              id="role-description"
              rows={2}
              className={inputClass}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <div>
            <p className="mb-1 text-sm font-medium">Páginas acessíveis</p>
            <div className="grid max-h-64 grid-cols-1 gap-1 overflow-y-auto rounded-md border border-slate-200 p-1 sm:grid-cols-2 dark:border-slate-700">
              {pages.map((page) => {
                const openToAll = page.kind === "signed-in";
                const fixed = locked.has(page.path);
                return (
                  <CheckItem
                    key={page.id}
                    id={`role-page-${page.id}`}
                    checked={openToAll || fixed || selected.includes(page.path)}
                    disabled={openToAll || fixed}
                    onChange={(on) => toggle(page.path, on)}
                    title={page.name}
                    subtitle={`${page.path}${openToAll ? " · Aberta a todos os usuários conectados" : fixed ? " · Definido pelo perfil do sistema" : ""}`}
                  />
                );
              })}
            </div>
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className={ghostButton} onClick={onClose}>
              Cancelar
            </button>
            <button type="submit" className={primaryButton}>
              {role ? "Salvar Alterações" : "Criar Perfil"}
            </button>
          </div>
        </fieldset>
      </form>
    </FormDialog>
  );
}
