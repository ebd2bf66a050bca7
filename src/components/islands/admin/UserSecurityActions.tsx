import { KeyRound, Link2, LogOut } from "lucide-react";
import type { UserRow } from "./types";
import { callAdmin, ConfirmDialog } from "./ui";
import { ghostButton } from "./styles";

/** Whether a user has a second factor and whether their roles require one (two-factor column). */
export function TwoFactorState({ enrolled, required }: { enrolled: boolean; required: boolean }) {
  return (
    <span className="flex flex-col">
      <span className={enrolled ? "font-medium text-emerald-700 dark:text-emerald-300" : "text-slate-700 dark:text-slate-200"}>
        {enrolled ? "Ativa" : "Não ativa"}
      </span>
      <span
        className={`text-xs ${required && !enrolled ? "font-medium text-amber-800 dark:text-amber-300" : "text-slate-600 dark:text-slate-300"}`}
      >
        {required ? "Obrigatória" : "Opcional"}
      </span>
    </span>
  );
}

/**
 * A user's row: end all their sessions, reset their second factor (lost phone) — offered only
 * when `resettable` (two-factor configured and the user enrolled) — or hand an account made in the
 * portal to the company directory — offered only when `linkable` (SCIM on, account not the directory's).
 */
export function UserSecurityActions({
  user,
  resettable,
  linkable,
  onChanged,
}: {
  user: UserRow;
  resettable: boolean;
  linkable: boolean;
  onChanged: () => void;
}) {
  const who = user.fullName || user.email;
  return (
    <>
      {linkable && (
        <ConfirmDialog
          triggerLabel={`Vincular ${user.email} ao diretório`}
          triggerClassName={ghostButton}
          triggerContent={<Link2 className="size-4" aria-hidden="true" />}
          title="Vincular ao diretório da empresa"
          message={`Entregar a conta de ${who} ao diretório da empresa (SCIM)? Nome, e-mail e ativação passam a vir dele, que poderá desativá-la ou excluí-la; senha e verificação em duas etapas continuam. Contas de administrador ou de segurança não são entregues.`}
          confirmLabel="Vincular"
          onConfirm={async () => {
            const linked = await callAdmin(
              "POST",
              `/api/admin/users/${user.id}/directory`,
              {},
              "Conta vinculada ao diretório",
              "Erro ao vincular a conta",
            );
            if (linked) onChanged();
          }}
        />
      )}
      <ConfirmDialog
        triggerLabel={`Encerrar sessões de ${user.email}`}
        triggerClassName={ghostButton}
        triggerContent={<LogOut className="size-4" aria-hidden="true" />}
        title="Encerrar todas as sessões"
        message={`Encerrar todas as sessões de ${who}? A pessoa precisará entrar de novo em todos os dispositivos.`}
        confirmLabel="Encerrar sessões"
        onConfirm={() => callAdmin("DELETE", `/api/admin/users/${user.id}/sessions`, {}, "Sessões encerradas", "Erro ao encerrar sessões")}
      />
      {resettable && (
        <ConfirmDialog
          triggerLabel={`Redefinir verificação em duas etapas de ${user.email}`}
          triggerClassName={ghostButton}
          triggerContent={<KeyRound className="size-4" aria-hidden="true" />}
          title="Redefinir verificação em duas etapas"
          message={`Remover o segundo fator de ${who}? Use quando a pessoa perdeu o celular: ela cadastrará um novo no próximo acesso.`}
          confirmLabel="Redefinir"
          onConfirm={async () => {
            const reset = await callAdmin(
              "DELETE",
              `/api/admin/users/${user.id}/two-factor`,
              {},
              "Verificação em duas etapas redefinida",
              "Erro ao redefinir a verificação",
            );
            if (reset) onChanged();
          }}
        />
      )}
    </>
  );
}
