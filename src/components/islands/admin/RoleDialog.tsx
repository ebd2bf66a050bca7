import { useState, type FormEvent } from "react";
import type { ChecklistPage, RoleRow } from "./types";
import { callAdmin } from "./ui";
import { CheckItem, DialogActions, FormDialog } from "./FormDialog";
import { inputClass } from "./styles";

/** Create/edit a role and its pages (a separate chunk: Radix Dialog loads when the admin opens it). */
export default function RoleDialog({
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
          <DialogActions onCancel={onClose} submitLabel={role ? "Salvar Alterações" : "Criar Perfil"} />
        </fieldset>
      </form>
    </FormDialog>
  );
}
