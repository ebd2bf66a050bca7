import { useRef, useState, type FormEvent } from "react";
import type { ChecklistPage, RoleRow } from "./types";
import { submitAdmin, type FieldErrors } from "./ui";
import { CheckItem, DialogActions, FieldError, FormDialog, invalidProps, useFocusFirstInvalid } from "./FormDialog";
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
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, errors);
  const locked = new Set(role?.lockedPages ?? []);
  // Only pages this role can actually gain are choices; the rest are listed apart as always open.
  const choices = pages.filter((page) => page.kind === "grantable" && !locked.has(page.path));
  const lockedPages = pages.filter((page) => page.kind === "grantable" && locked.has(page.path));
  const openToAll = pages.filter((page) => page.kind === "signed-in");

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = { name, description, pages: selected };
    const refused = role
      ? await submitAdmin("PUT", `/api/admin/roles/${role.id}`, body, "Perfil atualizado com sucesso", "Erro ao atualizar perfil")
      : await submitAdmin("POST", "/api/admin/roles", body, "Perfil criado com sucesso", "Erro ao criar perfil");
    setBusy(false);
    if (!refused) return onSaved();
    setErrors(refused);
  }

  const toggle = (path: string, on: boolean) => setSelected((current) => (on ? [...current, path] : current.filter((p) => p !== path)));

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={role ? "Editar Perfil" : "Novo Perfil"}
      description={
        role
          ? `Altere a descrição e as páginas que o perfil ${role.name} libera para quem o tiver.`
          : "Dê um nome ao perfil e escolha as páginas restritas que ele libera para quem o tiver."
      }
    >
      <form ref={form} onSubmit={submit} className="space-y-4" noValidate>
        <fieldset disabled={busy} className="space-y-4">
          <div>
            <label htmlFor="role-name" className="mb-1 block text-sm font-medium">
              Nome do Perfil
            </label>
            <input
              id="role-name"
              className={inputClass}
              value={name}
              disabled={role?.isSystem}
              onChange={(e) => setName(e.target.value)}
              {...invalidProps("role-name", errors.name)}
            />
            {role?.isSystem && (
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">Nome não pode ser alterado em perfis do sistema</p>
            )}
            <FieldError id="role-name-erro" message={errors.name} />
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
              {...invalidProps("role-description", errors.description)}
            />
            <FieldError id="role-description-erro" message={errors.description} />
          </div>
          <div role="group" aria-labelledby="role-pages-label">
            <p id="role-pages-label" className="mb-1 text-sm font-medium">
              Páginas que este perfil libera
            </p>
            {choices.length ? (
              <div className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 p-1 sm:grid-cols-2 dark:border-slate-700">
                {choices.map((page) => (
                  <CheckItem
                    key={page.id}
                    id={`role-page-${page.id}`}
                    checked={selected.includes(page.path)}
                    onChange={(on) => toggle(page.path, on)}
                    title={page.name}
                    subtitle={page.path}
                  />
                ))}
              </div>
            ) : (
              <p className="text-sm text-slate-600 dark:text-slate-300">Nenhuma outra página restrita para liberar.</p>
            )}
            <FieldError id="role-pages-erro" message={errors.pages} />
          </div>
          <div className="space-y-1 rounded-md bg-slate-50 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {lockedPages.length > 0 && (
              <p>
                <strong>Definidas pelo perfil do sistema:</strong> {lockedPages.map((page) => page.name).join(", ")}
              </p>
            )}
            <p>
              <strong>Abertas a todos os usuários conectados:</strong> {openToAll.map((page) => page.name).join(", ")}
            </p>
          </div>
          {errors._ && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {errors._}
            </p>
          )}
          <DialogActions onCancel={onClose} submitLabel={role ? "Salvar Alterações" : "Criar Perfil"} />
        </fieldset>
      </form>
    </FormDialog>
  );
}
