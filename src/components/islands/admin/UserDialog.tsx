import { useRef, useState, type FormEvent } from "react";
import { roleLabel } from "../../../lib/admin/role-labels";
import type { RoleRow, UserRow } from "./types";
import { submitAdmin, type FieldErrors } from "./ui";
import { CheckItem, DialogActions, FieldError, FormDialog, invalidProps, useFocusFirstInvalid } from "./FormDialog";
import { inputClass } from "./styles";

export type Editing = { kind: "new" } | { kind: "edit"; user: UserRow };

/** Create/edit a user (a separate chunk: Radix Dialog loads when the admin opens it). */
export default function UserDialog({
  editing,
  roles,
  onClose,
  onSaved,
}: {
  editing: Editing;
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
  const [errors, setErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(form, errors);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const refused = existing
      ? await submitAdmin(
          "PUT",
          `/api/admin/users/${existing.id}`,
          { fullName, roles: selected },
          "Usuário atualizado com sucesso",
          "Erro ao atualizar usuário",
        )
      : await submitAdmin(
          "POST",
          "/api/admin/users",
          { email, fullName, password, roles: selected },
          "Usuário criado com sucesso",
          "Erro ao criar usuário",
        );
    setBusy(false);
    if (!refused) return onSaved();
    setErrors(refused);
  }

  const toggle = (name: string, on: boolean) =>
    setSelected((current) => (on ? [...current, name] : current.filter((role) => role !== name)));

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={existing ? "Editar Usuário" : "Novo Usuário"}
      description={
        existing
          ? `Altere o nome e os perfis de ${existing.email}. O e-mail não pode ser alterado.`
          : "A conta é criada já confirmada: a pessoa entra com a senha temporária. Sem perfil marcado, recebe Visualizador."
      }
    >
      <form ref={form} onSubmit={submit} className="space-y-4" noValidate>
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
              {...invalidProps("user-email", errors.email)}
            />
            <FieldError id="user-email-erro" message={errors.email} />
          </div>
          <div>
            <label htmlFor="user-name" className="mb-1 block text-sm font-medium">
              Nome Completo
            </label>
            <input
              id="user-name"
              className={inputClass}
              value={fullName}
              readOnly={Boolean(existing?.directoryManaged)}
              onChange={(e) => setFullName(e.target.value)}
              {...invalidProps("user-name", errors.fullName)}
              {...(existing?.directoryManaged ? { "aria-describedby": "user-name-diretorio" } : {})}
            />
            {existing?.directoryManaged && (
              <p id="user-name-diretorio" className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                Nome e e-mail vêm do diretório da empresa (SCIM) e só mudam lá.
                {existing.deactivated ? " Conta desativada pelo diretório: reative-a no diretório." : ""}
              </p>
            )}
            <FieldError id="user-name-erro" message={errors.fullName} />
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
                {...invalidProps("user-password", errors.password)}
              />
              <FieldError id="user-password-erro" message={errors.password} />
            </div>
          )}
          <div role="group" aria-labelledby="user-roles-label" {...(errors.roles ? { "aria-describedby": "user-roles-erro" } : {})}>
            <p id="user-roles-label" className="mb-1 text-sm font-medium">
              Perfis
            </p>
            <div className="max-h-60 overflow-y-auto rounded-md border border-slate-200 p-1 dark:border-slate-700">
              {roles.map((role) => (
                <CheckItem
                  key={role.id}
                  id={`user-role-${role.id}`}
                  checked={selected.includes(role.name)}
                  onChange={(on) => toggle(role.name, on)}
                  title={roleLabel(role.name)}
                  subtitle={role.description}
                />
              ))}
            </div>
            <FieldError id="user-roles-erro" message={errors.roles} />
          </div>
          {errors._ && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {errors._}
            </p>
          )}
          <DialogActions onCancel={onClose} submitLabel={existing ? "Salvar Alterações" : "Criar Usuário"} />
        </fieldset>
      </form>
    </FormDialog>
  );
}
