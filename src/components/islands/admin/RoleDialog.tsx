import { useRef, useState, type FormEvent } from "react";
import type { ChecklistPage, RoleRow } from "./types";
import { submitAdmin, type FieldErrors } from "./ui";
import { CheckItem, DialogActions, FieldError, FormDialog, invalidProps, useFocusFirstInvalid } from "./FormDialog";
import { inputClass } from "./styles";

const PAGE_GROUPS = [
  ["conteudo", "Conteúdo"],
  ["restritas", "Restritas"],
  ["administracao", "Administração"],
] as const;

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
  const [limited, setLimited] = useState(role?.accessLimited ?? false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, errors);
  const locked = new Set(role?.lockedPages ?? []);
  const custom = !role?.isSystem;
  /** A page is a choice when checking it changes something for this role's holders; else it shows what holds. */
  const choiceOf = (page: ChecklistPage): { checked: boolean; disabled: boolean } => {
    if (page.restricted) return { checked: false, disabled: true };
    if (page.kind === "fixed") return { checked: locked.has(page.path), disabled: true };
    if (page.kind === "signed-in")
      return custom && limited ? { checked: selected.includes(page.path), disabled: false } : { checked: true, disabled: true };
    if (locked.has(page.path)) return { checked: true, disabled: true };
    return { checked: selected.includes(page.path), disabled: false };
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = { name, description, pages: selected, limited: custom && limited };
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
          {custom && (
            <div className="rounded-md border border-slate-200 p-1 dark:border-slate-700">
              <CheckItem
                id="role-limited"
                checked={limited}
                onChange={setLimited}
                title="Acesso limitado"
                subtitle="Quem só tem perfis limitados abre apenas as páginas marcadas abaixo (e as públicas); quem também tem Visualizador, Líder ou Admin mantém o que esses dão."
              />
            </div>
          )}
          {PAGE_GROUPS.map(([group, label]) => {
            const listed = pages.filter((page) => page.group === group);
            if (!listed.length) return null;
            return (
              <div key={group} role="group" aria-labelledby={`role-pages-${group}`}>
                <p id={`role-pages-${group}`} className="mb-1 text-sm font-medium">
                  {label}
                </p>
                <div className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 p-1 sm:grid-cols-2 dark:border-slate-700">
                  {listed.map((page) => {
                    const { checked, disabled } = choiceOf(page);
                    return (
                      <CheckItem
                        key={page.id}
                        id={`role-page-${page.id}`}
                        checked={checked}
                        disabled={disabled}
                        onChange={(on) => toggle(page.path, on)}
                        title={page.name}
                        subtitle={`${page.path} · ${page.audience}`}
                      />
                    );
                  })}
                </div>
              </div>
            );
          })}
          <FieldError id="role-pages-erro" message={errors.pages ?? errors.limited} />
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
