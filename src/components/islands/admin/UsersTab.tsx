import { lazy, Suspense, useRef, useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { SearchField } from "../ui/SearchField";
import { roleLabel } from "../../../lib/admin/role-labels";
import type { RoleRow, UserRow } from "./types";
import { callAdmin, ConfirmDialog } from "./ui";
import { RoleBadge } from "./RoleBadge";
import { ghostButton, inputClass, primaryButton } from "./styles";
import type { Editing } from "./UserDialog";
import { useUserList } from "./use-user-list";
import { TwoFactorState, UserSecurityActions } from "./UserSecurityActions";
import { readAddress, useAddress, writeAddress } from "./address-state";

const loadUserDialog = () => import("./UserDialog");
const UserDialog = lazy(loadUserDialog);
const preload = () => void loadUserDialog();

/**
 * The delete confirmation. For an account the directory manages it also says that the directory
 * creates it again at its next sync while the person is assigned there, so access ends for good
 * only in the directory (docs/decisions.md).
 */
function deleteMessage(user: UserRow): string {
  const who = `${user.fullName || "A conta"} (${user.email})`;
  const base = `Tem certeza que deseja excluir este usuário? ${who} perde o acesso e as sessões; o log de auditoria é mantido.`;
  if (!user.directoryManaged) return base;
  return (
    `${base} Esta conta é gerida pelo diretório da empresa (SCIM): enquanto a pessoa estiver atribuída ao portal no diretório, ` +
    "ele a cria de novo na próxima sincronização, com os perfis dos grupos. Para tirar o acesso de vez, desative ou remova a pessoa no diretório."
  );
}

interface Props {
  roles: RoleRow[];
  /** Roles' user counts change with users: the panel reloads them. */
  onChanged: () => Promise<void>;
  /** The signed-in admin's e-mail: their own row offers no 'Excluir'. */
  currentEmail: string | null;
}

/** Users tab: the server searches (name, e-mail, role; accents ignored), filters by role and pages. */
export default function UsersTab({ roles, onChanged, currentEmail }: Props) {
  const [search, setSearch] = useState("");
  const [role, setRole] = useState("");
  const [page, setPage] = useState(1);
  // The search, the role filter and the page live in the address too (`?aba=usuarios&q=ana&pagina=2`).
  useAddress(() => {
    setSearch(readAddress("q"));
    setRole(readAddress("perfil"));
    setPage(Math.max(1, Math.trunc(Number(readAddress("pagina"))) || 1));
  });
  const goToPage = (next: number) => {
    setPage(next);
    writeAddress({ pagina: next > 1 ? String(next) : "" }, "push");
  };
  const [editing, setEditing] = useState<Editing | null>(null);
  const { data, loading, reload } = useUserList(search, role, page);
  const summary = useRef<HTMLParagraphElement>(null);
  const users = data?.users ?? [];
  const twoFactorOn = data?.twoFactorOn ?? false;
  const columns = twoFactorOn ? 5 : 4;

  async function changed() {
    await Promise.all([reload(), onChanged()]);
  }

  async function remove(user: UserRow) {
    if (!(await callAdmin("DELETE", `/api/admin/users/${user.id}`, {}, "Usuário excluído com sucesso", "Erro ao excluir usuário"))) return;
    await changed();
    // The deleted row's button is gone: the focus goes to the list's summary, which now reads the new count.
    summary.current?.focus();
  }

  const countOf = (name: string) => data?.counts.byRole[name] ?? 0;

  return (
    <section aria-label="Usuários">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex w-full flex-col gap-3 sm:max-w-xl sm:flex-row">
          <SearchField
            label="Buscar usuários"
            placeholder="Buscar usuários..."
            value={search}
            onChange={(value) => {
              setSearch(value);
              setPage(1);
              writeAddress({ q: value, pagina: "" }, "replace");
            }}
          />
          <select
            aria-label="Filtrar por perfil"
            className={`${inputClass} sm:max-w-56`}
            value={role}
            onChange={(event) => {
              setRole(event.target.value);
              setPage(1);
              writeAddress({ perfil: event.target.value, pagina: "" }, "replace");
            }}
          >
            <option value="">Todos os perfis ({data?.counts.all ?? 0})</option>
            {roles.map((r) => (
              <option key={r.id} value={r.name}>
                {roleLabel(r.name)} ({countOf(r.name)})
              </option>
            ))}
          </select>
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
      <p
        ref={summary}
        tabIndex={-1}
        aria-live="polite"
        className="mb-2 text-sm text-slate-600 focus:outline-2 focus:outline-brand-600 dark:text-slate-300"
      >
        {data ? (data.total === 1 ? "1 usuário" : `${data.total} usuários`) : ""}
      </p>
      {data && !twoFactorOn && (
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
          Verificação em duas etapas desligada neste portal: defina TWO_FACTOR_KEY para ativá-la.
        </p>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700" aria-busy={loading}>
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th className="px-3 py-2">Nome</th>
              <th className="px-3 py-2">E-mail</th>
              <th className="px-3 py-2">Perfis</th>
              {twoFactorOn && <th className="px-3 py-2">Duas etapas</th>}
              <th className="px-3 py-2 text-right">Ações</th>
            </tr>
          </thead>
          <tbody>
            {loading && !data && (
              <tr>
                <td colSpan={columns} className="px-3 py-6 text-center text-slate-600 dark:text-slate-300">
                  Carregando...
                </td>
              </tr>
            )}
            {users.map((user) => (
              <tr key={user.id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2 font-medium">
                  {user.fullName || "N/A"}
                  {user.deactivated && (
                    <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-900 dark:text-red-100">
                      Desativado
                    </span>
                  )}
                  {user.directoryManaged && (
                    <span
                      className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                      title="Conta gerenciada pelo diretório da empresa (SCIM): nome, e-mail e ativação vêm de lá."
                    >
                      Diretório
                    </span>
                  )}
                </td>
                <td className="px-3 py-2">{user.email || "N/A"}</td>
                <td className="px-3 py-2">
                  <div className="flex flex-wrap gap-1">
                    {user.roles.length ? (
                      user.roles.map((name) => <RoleBadge key={name} role={name} />)
                    ) : (
                      <span className="text-slate-600 dark:text-slate-300">N/A</span>
                    )}
                  </div>
                </td>
                {twoFactorOn && (
                  <td className="px-3 py-2">
                    <TwoFactorState {...user.twoFactor} />
                  </td>
                )}
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
                    <UserSecurityActions
                      user={user}
                      resettable={twoFactorOn && user.twoFactor.enrolled}
                      linkable={Boolean(data?.directoryOn) && !user.directoryManaged}
                      onChanged={() => void reload()}
                    />
                    {user.email !== currentEmail && (
                      <ConfirmDialog
                        triggerLabel={`Excluir ${user.email}`}
                        triggerClassName={ghostButton}
                        triggerContent={<Trash2 className="size-4 text-red-600" aria-hidden="true" />}
                        title="Excluir usuário"
                        message={deleteMessage(user)}
                        confirmLabel="Excluir"
                        onConfirm={() => remove(user)}
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
            {data && users.length === 0 && (
              <tr>
                <td colSpan={columns} className="px-3 py-6 text-center text-slate-600 dark:text-slate-300">
                  Nenhum usuário encontrado
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data && data.pages > 1 && (
        <nav aria-label="Páginas de usuários" className="mt-3 flex items-center justify-end gap-2 text-sm">
          <button type="button" className={ghostButton} disabled={data.page <= 1} onClick={() => goToPage(data.page - 1)}>
            Anterior
          </button>
          <span>
            Página {data.page} de {data.pages}
          </span>
          <button type="button" className={ghostButton} disabled={data.page >= data.pages} onClick={() => goToPage(data.page + 1)}>
            Próxima
          </button>
        </nav>
      )}
      {editing && (
        <Suspense fallback={null}>
          <UserDialog
            key={editing.kind === "edit" ? editing.user.id : "new"}
            editing={editing}
            roles={roles}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void changed();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
