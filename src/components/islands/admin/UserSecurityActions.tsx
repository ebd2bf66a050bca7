import { KeyRound, LogOut } from "lucide-react";
import type { UserRow } from "./types";
import { callAdmin, ConfirmDialog } from "./ui";
import { ghostButton } from "./styles";

/** A user's row: end all their sessions, or reset their second factor (lost phone). */
export function UserSecurityActions({ user }: { user: UserRow }) {
  const who = user.fullName || user.email;
  return (
    <>
      <ConfirmDialog
        triggerLabel={`Encerrar sessões de ${user.email}`}
        triggerClassName={ghostButton}
        triggerContent={<LogOut className="size-4" aria-hidden="true" />}
        title="Encerrar todas as sessões"
        message={`Encerrar todas as sessões de ${who}? A pessoa precisará entrar de novo em todos os dispositivos.`}
        confirmLabel="Encerrar sessões"
        onConfirm={() => callAdmin("DELETE", `/api/admin/users/${user.id}/sessions`, {}, "Sessões encerradas", "Erro ao encerrar sessões")}
      />
      <ConfirmDialog
        triggerLabel={`Redefinir verificação em duas etapas de ${user.email}`}
        triggerClassName={ghostButton}
        triggerContent={<KeyRound className="size-4" aria-hidden="true" />}
        title="Redefinir verificação em duas etapas"
        message={`Remover o segundo fator de ${who}? Use quando a pessoa perdeu o celular: ela cadastrará um novo no próximo acesso.`}
        confirmLabel="Redefinir"
        onConfirm={() =>
          callAdmin(
            "DELETE",
            `/api/admin/users/${user.id}/two-factor`,
            {},
            "Verificação em duas etapas redefinida",
            "Erro ao redefinir a verificação",
          )
        }
      />
    </>
  );
}
