import { useRef, useState, type FormEvent } from "react";
import type { PageAccessEntry } from "../../../lib/admin/types";
import { roleLabel } from "../../../lib/admin/role-labels";
import { submitAdmin, type FieldErrors } from "./ui";
import { CheckItem, DialogActions, FieldError, FormDialog, useFocusFirstInvalid } from "./FormDialog";
import { audienceText } from "../../../lib/admin/labels";
import type { RoleRow } from "./types";

/** The role that always opens every page (ADMIN_ROLE in routes.ts, which reads the build's manifest, stays out of islands). */
const ADMIN_ROLE = "admin";

/** 'Quem pode abrir esta página': the default, or a chosen set of roles (a chunk of its own). */
export default function PageAccessDialog({
  page,
  roles,
  onClose,
  onSaved,
}: {
  page: PageAccessEntry;
  roles: RoleRow[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [mode, setMode] = useState<"padrao" | "perfis">(page.roles === null ? "padrao" : "perfis");
  // The admin role is always in the chosen set (the server adds it too): no one locks the admins out.
  const [chosen, setChosen] = useState<string[]>(() => [...new Set([ADMIN_ROLE, ...(page.roles ?? page.defaultRoles ?? [])])]);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, errors);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = { path: page.path, roles: mode === "padrao" ? null : chosen, version: page.version };
    const success = mode === "padrao" ? "Acesso padrão restaurado" : "Acesso à página atualizado";
    const refused = await submitAdmin("PUT", "/api/admin/page-access", body, success, "Erro ao alterar o acesso à página");
    setBusy(false);
    if (!refused) return onSaved();
    setErrors(refused);
  }

  const toggle = (name: string, on: boolean) => setChosen((current) => (on ? [...current, name] : current.filter((n) => n !== name)));

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Quem pode abrir esta página"
      description={`${page.name} (${page.path})`}
    >
      <form ref={form} onSubmit={submit} className="space-y-4" noValidate>
        <fieldset disabled={busy} className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium">Acesso</legend>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="modo" className="mt-1" checked={mode === "padrao"} onChange={() => setMode("padrao")} />
              <span>
                Padrão: {audienceText(page.defaultRoles)}
                {page.roles !== null && <span className="block text-xs text-slate-600 dark:text-slate-300">Restaura o padrão</span>}
              </span>
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="modo" className="mt-1" checked={mode === "perfis"} onChange={() => setMode("perfis")} />
              <span>Só os perfis escolhidos</span>
            </label>
          </fieldset>
          {mode === "perfis" && (
            <div role="group" aria-labelledby="page-access-roles">
              <p id="page-access-roles" className="mb-1 text-sm font-medium">
                Perfis que podem abrir
              </p>
              <div className="grid grid-cols-1 gap-1 rounded-md border border-slate-200 p-1 sm:grid-cols-2 dark:border-slate-700">
                {roles.map((role) =>
                  role.name === ADMIN_ROLE ? (
                    <CheckItem
                      key={role.id}
                      id={`page-access-role-${role.id}`}
                      checked
                      disabled
                      onChange={() => undefined}
                      title={roleLabel(role.name)}
                      subtitle="Sempre pode abrir"
                      describedBy="page-access-admin-note"
                    />
                  ) : (
                    <CheckItem
                      key={role.id}
                      id={`page-access-role-${role.id}`}
                      checked={chosen.includes(role.name)}
                      onChange={(on) => toggle(role.name, on)}
                      title={roleLabel(role.name)}
                      subtitle={role.accessLimited ? "Acesso limitado" : role.isSystem ? "Sistema" : "Customizado"}
                    />
                  ),
                )}
              </div>
              <p id="page-access-admin-note" className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                O perfil Administrador sempre pode abrir todas as páginas, para que ninguém perca o acesso ao Painel. Ele não pode ser
                desmarcado.
              </p>
              <FieldError id="page-access-roles-erro" message={errors.roles} />
            </div>
          )}
          {(errors._ ?? errors.path) && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {errors._ ?? errors.path}
            </p>
          )}
          <DialogActions onCancel={onClose} submitLabel="Salvar" />
        </fieldset>
      </form>
    </FormDialog>
  );
}
