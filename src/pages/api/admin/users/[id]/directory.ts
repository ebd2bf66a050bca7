import type { APIRoute } from "astro";
import { getDb } from "../../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../../lib/server/http/http";
import { linkAccountToDirectory } from "../../../../../lib/server/provisioning/account-control";

export const prerender = false;

const REFUSALS = {
  not_found: [404, "Usuário não encontrado"],
  already_managed: [409, "Esta conta já é gerida pelo diretório da empresa."],
  privileged: [
    409,
    "Contas com perfil de administrador ou de segurança não são entregues ao diretório: elas continuam geridas só no portal.",
  ],
} as const;

/** An administrator hands an account made in the portal to the company directory (SCIM), audited. */
export const POST: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const result = await linkAccountToDirectory(getDb(), params.id ?? "", actorOf(locals, request));
  if (!result.ok) {
    const [status, error] = REFUSALS[result.code];
    return jsonResponse(status, { error });
  }
  return jsonResponse(200, { message: "Conta vinculada ao diretório: nome, e-mail e ativação passam a vir dele." });
};
