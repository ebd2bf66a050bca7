/** Audit action types and their Portuguese labels. */
export const AUDIT_ACTION_LABELS = {
  user_signup_attempt: "Tentativa de Cadastro",
  user_signup_success: "Cadastro Realizado",
  user_email_confirmed: "E-mail Confirmado",
  user_login_attempt: "Tentativa de Login",
  user_login_success: "Login Realizado",
  user_logout: "Logout",
  password_reset_request: "Solicitação Reset Senha",
  email_confirmation_resend: "Reenvio de Confirmação",
  password_reset_success: "Reset Senha Realizado",
  page_access_denied: "Acesso Negado",
  page_access_granted: "Acesso Liberado",
  admin_user_created: "Usuário Criado",
  admin_user_updated: "Usuário Atualizado",
  admin_user_deleted: "Usuário Excluído",
  admin_role_assigned: "Role Atribuído",
  admin_role_removed: "Role Removido",
  admin_custom_role_created: "Role Customizado Criado",
  admin_custom_role_updated: "Role Customizado Atualizado",
  admin_custom_role_deleted: "Role Customizado Excluído",
  admin_page_access_updated: "Acesso à Página Alterado",
  admin_page_access_refused: "Alteração de Acesso à Página Recusada",
  admin_user_directory_linked: "Usuário Vinculado ao Diretório",
  // Corporate sign-in (OpenID Connect)
  sso_login_success: "Login SSO Realizado",
  sso_domain_refused: "SSO: Domínio Recusado",
  sso_email_unverified: "SSO: E-mail Não Verificado",
  sso_invalid_state: "SSO: Estado Inválido",
  sso_provider_error: "SSO: Erro do Provedor",
  sso_roles_updated: "SSO: Perfis Atualizados",
  sso_claims_refused: "SSO: Dados do Provedor Recusados",
  sso_identity_conflict: "SSO: E-mail de Outra Identidade",
  sso_identity_unlinked: "SSO: Vínculo Removido",
  sso_identity_linked: "SSO: Vínculo Gravado Após o Código",
  sso_second_factor_required: "SSO: Segundo Fator Pedido",
  user_pending_purged: "Cadastro Pendente Removido",
  // Two-factor sign-in (TOTP)
  two_factor_enabled: "Verificação em Duas Etapas Ativada",
  two_factor_login_failure: "Código de Verificação Recusado",
  two_factor_recovery_code_used: "Código de Recuperação Usado",
  two_factor_reset: "Verificação em Duas Etapas Redefinida",
  // Sessions ended from 'Minhas sessões' or by an administrator
  session_ended: "Sessão Encerrada",
  admin_sessions_ended: "Sessões Encerradas pelo Admin",
  // Required reading
  reading_confirmed: "Leitura Confirmada",
  reading_digest_sent: "Lembrete de Leitura Enviado",
  reading_digest_opt_out: "Lembrete de Leitura: Preferência",
  // Provisioning by the company directory (SCIM)
  scim_user_created: "Diretório: Usuário Criado",
  scim_user_updated: "Diretório: Usuário Atualizado",
  scim_user_deactivated: "Diretório: Usuário Desativado",
  scim_user_reactivated: "Diretório: Usuário Reativado",
  scim_user_deleted: "Diretório: Usuário Excluído",
  scim_group_created: "Diretório: Grupo Criado",
  scim_group_updated: "Diretório: Grupo Atualizado",
  scim_group_deleted: "Diretório: Grupo Excluído",
  scim_roles_updated: "Diretório: Perfis Atualizados",
  scim_user_blocked: "Diretório: Alteração Bloqueada",
  // Rows written by a process without AUDIT_CHAIN_KEY, taken into the sealed chain and named
  audit_rows_without_key: "Auditoria: Registros Gravados sem a Chave",
  // Audit streaming to the company's SIEM (Integrações tab)
  audit_stream_paused: "Integração Pausada",
  audit_stream_resumed: "Integração Retomada",
  audit_stream_resend: "Integração: Reenvio Pedido",
  audit_destination_created: "Integração: Destino Adicionado",
  audit_destination_updated: "Integração: Destino Alterado",
  audit_destination_removed: "Integração: Destino Removido",
  audit_destination_secret_rotated: "Integração: Segredo Renovado",
  audit_destination_tested: "Integração: Evento de Teste Enviado",
} as const satisfies Record<string, string>;

/** Every action an audit row may record. */
export type AuditActionType = keyof typeof AUDIT_ACTION_LABELS;

export type AuditResult = "success" | "failure" | "blocked";

export const AUDIT_RESULT_LABELS: Record<AuditResult, string> = {
  success: "Sucesso",
  failure: "Falha",
  blocked: "Bloqueado",
};

/** Unknown types are shown raw. */
export function auditActionLabel(actionType: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[actionType] ?? actionType;
}
