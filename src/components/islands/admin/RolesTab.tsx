import { lazy, Suspense, useRef, useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import type { ChecklistPage, RoleRow } from "./types";
import { callAdmin, ConfirmDialog } from "./ui";
import { ghostButton, primaryButton } from "./styles";
import { roleLabel } from "../../../lib/admin/role-labels";
import { rolePagesLabel } from "../../../lib/admin/labels";

import PageAccessSection from "./PageAccessSection";

const loadRoleDialog = () => import("./RoleDialog");
const RoleDialog = lazy(loadRoleDialog);
const preload = () => void loadRoleDialog();

interface Props {
  roles: RoleRow[];
  pages: ChecklistPage[];
  loading: boolean;
  onChanged: () => Promise<void>;
}

type Editing = { kind: "new" } | { kind: "edit"; role: RoleRow } | null;

export default function RolesTab({ roles, pages, loading, onChanged }: Props) {
  const [editing, setEditing] = useState<Editing>(null);
  const summary = useRef<HTMLParagraphElement>(null);

  async function remove(role: RoleRow) {
    if (!(await callAdmin("DELETE", `/api/admin/roles/${role.id}`, {}, "Perfil excluído com sucesso", "Erro ao excluir perfil"))) return;
    await onChanged();
    // The deleted row's button is gone: the focus goes to the list's summary, which now reads the new count.
    summary.current?.focus();
  }

  return (
    <section aria-label="Perfis">
      <div className="mb-4 flex items-center justify-between gap-3">
        <p ref={summary} tabIndex={-1} className="text-sm text-slate-600 focus:outline-2 focus:outline-brand-600 dark:text-slate-300">
          {roles.length} perfis configurados
        </p>
        <button
          type="button"
          className={primaryButton}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={() => setEditing({ kind: "new" })}
        >
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
                <td className="px-3 py-2 font-medium">{roleLabel(role.name)}</td>
                <td className="px-3 py-2 text-slate-600 dark:text-slate-300">{role.description || "N/A"}</td>
                <td className="px-3 py-2">
                  {role.isSystem ? "Sistema" : role.accessLimited ? "Customizado · Acesso limitado" : "Customizado"}
                </td>
                <td className="px-3 py-2">{role.userCount}</td>
                <td className="px-3 py-2">{rolePagesLabel(role, pages)}</td>
                <td className="px-3 py-2">
                  <div className="flex justify-end gap-1">
                    <button
                      type="button"
                      className={ghostButton}
                      aria-label={`Editar perfil ${role.name}`}
                      onPointerEnter={preload}
                      onFocus={preload}
                      onClick={() => setEditing({ kind: "edit", role })}
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    {!role.isSystem && (
                      <ConfirmDialog
                        triggerLabel={`Excluir perfil ${role.name}`}
                        triggerClassName={ghostButton}
                        triggerContent={<Trash2 className="size-4 text-red-600" aria-hidden="true" />}
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
      <PageAccessSection roles={roles} onChanged={onChanged} />
      {editing && (
        <Suspense fallback={null}>
          <RoleDialog
            key={editing.kind === "edit" ? editing.role.id : "new"}
            role={editing.kind === "edit" ? editing.role : null}
            pages={pages}
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
