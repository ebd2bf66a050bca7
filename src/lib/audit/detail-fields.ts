/**
 * An audit row's details (stored JSON, keys in English or Portuguese as each writer chose) read as
 * labelled Portuguese fields, for the 'Detalhes' disclosure and the CSV's readable column. The stored
 * JSON is not changed: the table keeps it (truncated, as the spec says) and the CSV keeps it whole.
 */
const KEY_LABELS: ReadonlyMap<string, string> = new Map([
  ["account_found", "Conta encontrada"],
  ["actor", "Autor"],
  ["after", "Depois"],
  ["before", "Antes"],
  ["claim", "Atributo do provedor"],
  ["count", "Ocorrências"],
  ["created", "Conta criada"],
  ["description", "Descrição"],
  ["email", "E-mail"],
  ["ended", "Encerradas"],
  ["enviados", "Enviados"],
  ["error", "Motivo"],
  ["falhas", "Falhas"],
  ["field", "Campo"],
  ["full_name", "Nome"],
  ["holders", "Pessoas com o perfil"],
  ["incertos", "Incertos"],
  ["issuer", "Provedor"],
  ["left", "Tentativas restantes"],
  ["lembreteSemanal", "Lembrete semanal"],
  ["linked", "Vinculada"],
  ["manual", "Perfis mantidos (manuais)"],
  ["method", "Método"],
  ["motivo", "Motivo"],
  ["name", "Nome"],
  ["operation", "Operação"],
  ["pages", "Páginas"],
  ["pagina", "Página"],
  ["pending_account", "Cadastro pendente"],
  ["previous_email", "E-mail anterior"],
  ["reason", "Motivo"],
  ["reenvio", "Reenvio"],
  ["role", "Perfil"],
  ["roles", "Perfis"],
  ["secondFactor", "Segundo fator"],
  ["semana", "Semana"],
  ["sent", "Enviado"],
  ["sessionsEnded", "Sessões encerradas"],
  ["subject", "Identificador no provedor"],
  ["targetUserId", "Usuário afetado (id)"],
  ["user_email", "E-mail do usuário"],
  ["user_id", "Usuário (id)"],
  ["value", "Valor recebido"],
  ["versao", "Versão"],
  ["via", "Via"],
]);

const VALUE_LABELS: ReadonlyMap<string, string> = new Map([
  ["account_deactivated", "conta desativada"],
  ["email_held_by_other_account", "e-mail já usado por outra conta"],
  ["email_not_confirmed", "e-mail não confirmado"],
  ["email_taken", "e-mail já cadastrado"],
  ["invalid_credentials", "e-mail ou senha incorretos"],
  ["invalid_domain", "domínio não autorizado"],
  ["invalid_email", "e-mail inválido"],
  ["invalid_fullName", "nome inválido"],
  ["linked_to_other_identity", "vinculada a outra identidade"],
  ["name_taken", "nome já usado"],
  ["rate_limited", "tentativas demais"],
  ["unknown_role", "perfil desconhecido"],
  ["password_discarded", "senha descartada"],
]);

export interface DetailField {
  label: string;
  value: string;
}

/** A key without a label: the writer's own name, an underscore between letters as a space. */
function labelOf(key: string): string {
  return KEY_LABELS.get(key) ?? key.replace(/(?<=\p{L})_(?=\p{L})/gu, " ");
}

function valueOf(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "sim" : "não";
  if (typeof value === "string") return VALUE_LABELS.get(value) ?? value;
  if (typeof value === "number") return value.toLocaleString("pt-BR");
  if (Array.isArray(value)) return value.length ? value.map(valueOf).join(", ") : "nenhum";
  return JSON.stringify(value);
}

/** The details as labelled fields in stored order; text that is not a JSON object is one field 'Detalhes'. */
export function detailFields(details: string | null): DetailField[] {
  if (!details) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return [{ label: "Detalhes", value: details }];
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return [{ label: "Detalhes", value: valueOf(parsed) }];
  return Object.entries(parsed as Record<string, unknown>).map(([key, value]) => ({ label: labelOf(key), value: valueOf(value) }));
}

/** One line for the CSV's readable column: "Rótulo: valor; …". */
export function detailsReadable(details: string | null): string {
  return detailFields(details)
    .map((field) => `${field.label}: ${field.value}`)
    .join("; ");
}
