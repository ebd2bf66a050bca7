/**
 * Every setting the portal reads from the environment, declared once: name, type, default, what it is
 * for (pt-BR) and which component reads it. The zod schema below is the only place that reads
 * `process.env` in production code; src/lib/server/config turns these raw values into typed settings
 * and refuses a value that cannot work (the Portuguese messages live there, next to each rule).
 * docs/configuracao.md's table is generated from this file (`npm run docs:settings`) and a test
 * fails when they differ; `.env.example` names only settings declared here.
 */
import path from "node:path";
import { z } from "zod";

export type SettingType = "texto" | "número" | "sim/não" | "lista" | "endereço" | "chave" | "segredo" | "caminho";

export interface SettingMeta {
  tipo: SettingType;
  /** The default as a person reads it ("vazio" when none). */
  padrao: string;
  descricao: string;
  /** Who reads it: the gate at start, the build, a CLI, the audit-stream thread… */
  componente: string;
  /** Tests, bench and development only: left out of the docs table and of .env.example. */
  interna?: boolean;
}

/** A setting's rule: null when the raw value can work, else the Portuguese refusal the start prints. */
type SettingRule = (value: string | undefined) => string | null;

function setting(meta: SettingMeta, rule?: SettingRule) {
  const value = z.string().optional();
  const checked = rule
    ? value.superRefine((raw, context) => {
        const problem = rule(raw);
        if (problem) context.addIssue({ code: "custom", message: problem });
      })
    : value;
  return checked.meta({ ...meta } as Record<string, unknown>);
}

const blank = (value: string | undefined) => value === undefined || value.trim() === "";

/** Empty, or a whole number ≥ 1. */
const positiveIntegerRule =
  (name: string): SettingRule =>
  (value) =>
    blank(value) || (Number.isInteger(Number(value)) && Number(value) >= 1)
      ? null
      : `${name} deve ser um número inteiro ≥ 1 (recebido: "${value}")`;

/** Empty, or a whole number from `min` to `max`. */
const integerBetweenRule =
  (name: string, min: number, max: number): SettingRule =>
  (value) => {
    const text = value?.trim() ?? "";
    return !text || (/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max)
      ? null
      : `${name} deve ser um número inteiro entre ${min} e ${max} (recebido: "${value}")`;
  };

/** A 32-byte key given as 64 hex characters or base64 (`openssl rand -hex 32`): the key, null when empty, "inválida" otherwise. */
export function key32(value: string | undefined): Buffer | null | "inválida" {
  const text = value?.trim() ?? "";
  if (!text) return null;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  return key.length === 32 ? key : "inválida";
}

const key32Rule =
  (name: string): SettingRule =>
  (value) =>
    key32(value) === "inválida" ? `${name} deve ter 32 bytes (64 caracteres hexadecimais ou base64); gere com: openssl rand -hex 32` : null;

/** true/1 or false/0/empty. */
const yesNoRule =
  (name: string): SettingRule =>
  (value) =>
    ["true", "1", "false", "0", ""].includes((value ?? "").trim().toLowerCase())
      ? null
      : `${name} deve ser true ou false (recebido: "${value}")`;

/** Empty, or a whole number from `min` to `max` in `unit` (the operational settings' wording). */
const wholeNumberRule =
  (name: string, unit: string, min: number, max: number): SettingRule =>
  (value) => {
    const text = value?.trim() ?? "";
    return !text || (/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max)
      ? null
      : `${name} deve ser um número ${unit} entre ${min} e ${max}.`;
  };

/** Shortest `METRICS_TOKEN` accepted. */
export const MIN_METRICS_TOKEN_LENGTH = 24;

const metricsTokenRule: SettingRule = (value) => {
  const token = value?.trim() ?? "";
  return token && token.length < MIN_METRICS_TOKEN_LENGTH
    ? `METRICS_TOKEN precisa de pelo menos ${MIN_METRICS_TOKEN_LENGTH} caracteres (use, por exemplo, openssl rand -hex 32).`
    : null;
};

/** Printable ASCII only: a bidi or zero-width character in a host is never a real server's name. */
const printable = (text: string) => /^[\x21-\x7e]+$/.test(text);

const publicUrlRule: SettingRule = (value) => {
  const configured = value?.trim();
  if (!configured) return null;
  const url = URL.parse(configured);
  return url && (url.protocol === "http:" || url.protocol === "https:")
    ? null
    : `PUBLIC_URL deve ser um endereço http:// ou https:// (recebido: "${configured}")`;
};

const smtpUrlRule: SettingRule = (value) => {
  const configured = value?.trim() ?? "";
  if (!configured) return null;
  const url = URL.parse(configured);
  return printable(configured) && url && (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname
    ? null
    : "SMTP_URL deve ser um endereço smtp:// ou smtps:// (por exemplo smtp://usuario:senha@smtp.empresa.com:587)";
};

const docsUrlRule: SettingRule = (value) => {
  const configured = value?.trim() ?? "";
  if (!configured) return null;
  const url = URL.parse(configured);
  return configured.length <= 500 && printable(configured) && url && (url.protocol === "http:" || url.protocol === "https:")
    ? null
    : "DOCS_URL deve ser um endereço http:// ou https:// (até 500 caracteres), por exemplo https://git.suaempresa.com.br/b1/hub/-/blob/main";
};

const GATE = "gate (início)";
const AUDIT_STREAM = "gate (envio da auditoria)";

export const settingsSchema = z.object({
  PORT: setting({ tipo: "número", padrao: "`4321`", descricao: "porta onde o gate escuta", componente: GATE }),
  HOST: setting({ tipo: "texto", padrao: "`127.0.0.1`", descricao: "endereço onde o gate escuta", componente: GATE }),
  PUBLIC_URL: setting(
    {
      tipo: "endereço",
      padrao: "`http://localhost:$PORT` (`http://$HOST:$PORT` se `HOST` for um endereço específico fora do loopback)",
      descricao:
        "o endereço que o início imprime, o dos links nos e-mails e a única origem aceita em POST/PUT/PATCH/DELETE (https liga cookies `Secure` e `__Host-`); sem ele, as grafias de loopback da porta são aceitas",
      componente: GATE,
    },
    publicUrlRule,
  ),
  DATABASE_PATH: setting({
    tipo: "caminho",
    padrao: "`data/b1.sqlite`",
    descricao: "arquivo SQLite (criado e migrado no início)",
    componente: "gate, CLI",
  }),
  DATABASE_URL: setting({
    tipo: "endereço",
    padrao: "vazio",
    descricao: "`postgres://…` troca o portal inteiro para PostgreSQL (veja docs/operacao.md, Vários servidores)",
    componente: "gate, CLI",
  }),
  DATABASE_POOL_MAX: setting({
    tipo: "número",
    padrao: "`10`",
    descricao: "conexões por instância com o PostgreSQL",
    componente: "gate, CLI",
  }),
  AUTH_ALLOWED_DOMAINS: setting({
    tipo: "lista",
    padrao: "vazio (`scripts/start.sh` usa `b1.example.com,b1.example.com.br,semente.example.org` e avisa)",
    descricao: "domínios autorizados; com esta e a próxima vazias, cadastro e login são recusados e o log diz por quê",
    componente: "gate, CLI",
  }),
  AUTH_ALLOWED_EMAILS: setting({
    tipo: "lista",
    padrao: "vazio (exemplo: `parceiro@example.net`)",
    descricao: "endereços avulsos autorizados",
    componente: "gate, CLI",
  }),
  AUTH_PASSWORD: setting({
    tipo: "sim/não",
    padrao: "`true`",
    descricao: "`false` esconde o formulário de senha e recusa (403) os endpoints de senha; a CLI continua valendo",
    componente: GATE,
  }),
  SMTP_URL: setting(
    {
      tipo: "endereço",
      padrao: "vazio",
      descricao:
        "envio de e-mail (`smtp://` ou `smtps://`; outro valor impede o início); sem SMTP as mensagens vão para `data/outbox/*.eml` e o link aparece no console",
      componente: "gate, `npm run reading:digest`",
    },
    smtpUrlRule,
  ),
  MAIL_FROM: setting({
    tipo: "texto",
    padrao: "`B1 Method Hub <nao-responda@b1.example.com>`",
    descricao: "remetente dos e-mails",
    componente: "gate, `npm run reading:digest`",
  }),
  CONTACT_EMAIL: setting({
    tipo: "texto",
    padrao: "`metodologia@b1.example.com`",
    descricao: "endereço de contato das páginas",
    componente: "build",
  }),
  PUBLIC_CONTACT_EMAIL: setting({
    tipo: "texto",
    padrao: "o de `CONTACT_EMAIL`",
    descricao: "o mesmo, com o prefixo que o Astro expõe às páginas",
    componente: "build",
  }),
  TRUST_PROXY: setting({
    tipo: "sim/não",
    padrao: "`false`",
    descricao: "confiar em `X-Forwarded-For` e `X-Request-Id` (atrás de um proxy reverso que os escreve)",
    componente: GATE,
  }),
  TZ_DISPLAY: setting({
    tipo: "texto",
    padrao: "`America/Sao_Paulo`",
    descricao: "fuso das datas exibidas e dos filtros de período da auditoria (armazenadas em UTC)",
    componente: "gate, build",
  }),
  READING_DIGEST: setting({
    tipo: "sim/não",
    padrao: "`true`",
    descricao:
      "lembrete semanal de leitura obrigatória por e-mail (segundas a partir das 9h em `TZ_DISPLAY`, um por pessoa por semana); `false` desliga o envio do servidor",
    componente: GATE,
  }),
  INSIGHTS: setting({
    tipo: "sim/não",
    padrao: "`true`",
    descricao: 'métricas de `/insights` (leituras, buscas, "Esta página ajudou?"); `false` não coleta nada e esconde o formulário',
    componente: GATE,
  }),
  INSIGHTS_KEY: setting(
    {
      tipo: "chave",
      padrao: "vazio (chave aleatória por processo, com aviso)",
      descricao:
        "32 bytes (`openssl rand -hex 32`), a mesma em todas as instâncias: segredo de que derivam os pseudônimos do Insights; nunca gravado no banco. Troque se vazar (docs/security.md)",
      componente: GATE,
    },
    key32Rule("INSIGHTS_KEY"),
  ),
  INSIGHTS_RETENTION_DAYS: setting(
    {
      tipo: "número",
      padrao: "`400`",
      descricao: "dias de agregados do Insights mantidos; os mais antigos são apagados em lotes na manutenção de hora em hora",
      componente: GATE,
    },
    positiveIntegerRule("INSIGHTS_RETENTION_DAYS"),
  ),
  AUDIT_RETENTION_DAYS: setting(
    {
      tipo: "número",
      padrao: "vazio (guarda tudo)",
      descricao: "dias de auditoria mantidos; os mais antigos são apagados em lotes no início e a cada hora",
      componente: GATE,
    },
    positiveIntegerRule("AUDIT_RETENTION_DAYS"),
  ),
  AUDIT_RETENTION_INTERVAL_MS: setting(
    {
      tipo: "número",
      padrao: "`3600000`",
      descricao: "intervalo da retenção da auditoria (testes)",
      componente: GATE,
      interna: true,
    },
    positiveIntegerRule("AUDIT_RETENTION_INTERVAL_MS"),
  ),
  SHUTDOWN_TIMEOUT_MS: setting(
    {
      tipo: "número",
      padrao: "`30000`",
      descricao: "quanto o SIGTERM espera as requisições em andamento antes de encerrá-las",
      componente: GATE,
    },
    positiveIntegerRule("SHUTDOWN_TIMEOUT_MS"),
  ),
  SHUTDOWN_DRAIN_MS: setting(
    {
      tipo: "número",
      padrao: "`0`",
      descricao: "no SIGTERM, `/readyz` responde 503 por este tempo antes de o servidor parar (0 a 300000)",
      componente: GATE,
    },
    wholeNumberRule("SHUTDOWN_DRAIN_MS", "de milissegundos", 0, 300_000),
  ),
  REQUEST_TIMEOUT_MS: setting({
    tipo: "número",
    padrao: "`30000`",
    descricao:
      "tempo máximo de uma requisição inteira (→ 408); no PostgreSQL, obter uma conexão e cada comando esperam no máximo a metade (→ 503)",
    componente: GATE,
  }),
  BODY_IDLE_TIMEOUT_MS: setting({
    tipo: "número",
    padrao: "`10000`",
    descricao: "tempo máximo de um corpo parado (→ 408)",
    componente: GATE,
  }),
  SESSION_MAX_LIFETIME_DAYS: setting({
    tipo: "número",
    padrao: "`30`",
    descricao: "vida máxima de uma sessão desde o login, mesmo em uso (veja `docs/security.md`)",
    componente: GATE,
  }),
  EDIT_URL_BASE: setting({
    tipo: "endereço",
    padrao: "vazio (sem link)",
    descricao:
      "pasta do editor web do git (ex.: `https://git.suaempresa.com.br/b1/hub/-/edit/main`); cada página de conteúdo ganha 'Editar esta página' (endereço + caminho do arquivo). Só `https://`, ASCII, até 2000 caracteres",
    componente: "build",
  }),
  CONTENT_EDIT_URL: setting({
    tipo: "endereço",
    padrao: "vazio",
    descricao: "nome antigo de `EDIT_URL_BASE` (vale quando ela está vazia)",
    componente: "build",
  }),
  EDIT_ROLES: setting({
    tipo: "lista",
    padrao: "`admin,lider`",
    descricao: "perfis do sistema que veem 'Editar esta página' (o gate mostra o link só a eles, a cada requisição)",
    componente: "build",
  }),
  HISTORY_HIDE_AUTHORS: setting({
    tipo: "sim/não",
    padrao: "`false`",
    descricao: "`true` tira o nome de quem editou das páginas de histórico (`/historico/<página>`)",
    componente: "build",
  }),
  OIDC_ISSUER: setting({
    tipo: "endereço",
    padrao: "vazio",
    descricao: "login corporativo (OpenID Connect): o emissor; ligado quando emissor e client id estão definidos",
    componente: GATE,
  }),
  OIDC_CLIENT_ID: setting({
    tipo: "texto",
    padrao: "vazio",
    descricao: "login corporativo: o client id registrado no provedor",
    componente: GATE,
  }),
  OIDC_CLIENT_SECRET: setting({ tipo: "segredo", padrao: "vazio", descricao: "login corporativo: o segredo do cliente", componente: GATE }),
  OIDC_BUTTON_LABEL: setting({
    tipo: "texto",
    padrao: "`Entrar com a conta corporativa`",
    descricao: "texto do botão em `/auth`",
    componente: GATE,
  }),
  OIDC_ROLE_CLAIM: setting({ tipo: "texto", padrao: "`groups`", descricao: "claim do ID token lida para os perfis", componente: GATE }),
  OIDC_ROLE_MAP: setting({
    tipo: "lista",
    padrao: "vazio",
    descricao:
      "mapa `valor:perfil` (ex.: `grupo-ti:admin,lideres:lider`), também para os grupos do SCIM; só perfis do sistema (`admin`, `lider`, `visualizador`, `security`), um nome desconhecido impede o início",
    componente: GATE,
  }),
  OIDC_LOGOUT: setting({
    tipo: "sim/não",
    padrao: "`false`",
    descricao: "'Sair' também encerra a sessão no provedor (se ele tiver `end_session_endpoint`)",
    componente: GATE,
  }),
  OIDC_MFA_ACR: setting({
    tipo: "lista",
    padrao: "vazio",
    descricao:
      "valores de `acr` (exatos) do ID token que significam que o provedor conferiu um segundo fator; valem só para contas criadas pelo login corporativo sem perfil admin ou security",
    componente: GATE,
  }),
  OIDC_MFA_AMR: setting({
    tipo: "lista",
    padrao: "vazio",
    descricao: "o mesmo para `amr` (entre `mfa`, `mca`, `otp`, `hwk`, `swk`, `sc`); vazios, o portal sempre pede o próprio código",
    componente: GATE,
  }),
  TWO_FACTOR_KEY: setting({
    tipo: "chave",
    padrao: "vazio",
    descricao:
      "chave de 32 bytes (`openssl rand -hex 32`) que cifra (AES-256-GCM) os segredos TOTP; vazia desliga a verificação em duas etapas. Guarde-a como a senha do banco",
    componente: "gate, CLI",
  }),
  TWO_FACTOR_REQUIRED_ROLES: setting({
    tipo: "lista",
    padrao: "`admin,security` (só com a chave)",
    descricao:
      "perfis do sistema cujas sessões precisam ter passado pelo segundo fator (ou pelo SSO); um nome desconhecido, ou a lista sem `TWO_FACTOR_KEY`, impede o início",
    componente: GATE,
  }),
  AUDIT_IP_MASK: setting({
    tipo: "sim/não",
    padrao: "`false`",
    descricao: "`true` grava nos registros de auditoria só o /24 do IPv4 e o /48 do IPv6 (LGPD)",
    componente: "gate, CLI",
  }),
  AUDIT_CHAIN_KEY: setting(
    {
      tipo: "chave",
      padrao: "vazio",
      descricao:
        "chave de 32 bytes que sela com HMAC o topo da cadeia do log de auditoria; a mesma em todas as instâncias e no ambiente de `npm run audit:verify`, `npm run user` e `npm run reading:digest`. Ao definir ou trocar, rode `npm run audit:verify -- --seal`",
      componente: "gate, CLI",
    },
    key32Rule("AUDIT_CHAIN_KEY"),
  ),
  DOCS_URL: setting(
    {
      tipo: "endereço",
      padrao: "vazio",
      descricao:
        'onde os arquivos deste repositório são lidos no navegador: os itens de "Primeiros passos" no painel viram links; só `http://`/`https://` (até 500 caracteres), outro valor impede o início',
      componente: GATE,
    },
    docsUrlRule,
  ),
  BACKUP_EXTERNAL: setting(
    {
      tipo: "sim/não",
      padrao: "`false`",
      descricao:
        '`true`: as cópias são feitas fora do `npm run db:backup` e "Primeiros passos" não as cobra; outro valor que não `true`/`false` impede o início',
      componente: GATE,
    },
    yesNoRule("BACKUP_EXTERNAL"),
  ),
  AUDIT_WEBHOOK_URL: setting({
    tipo: "endereço",
    padrao: "vazio",
    descricao: "envio da auditoria a um coletor HTTP (webhook assinado, Standard Webhooks), `http(s)://…`; outro valor impede o início",
    componente: AUDIT_STREAM,
  }),
  AUDIT_WEBHOOK_SECRET: setting({
    tipo: "segredo",
    padrao: "vazio",
    descricao: "segredo do webhook, ≥ 32 bytes (`echo whsec_$(openssl rand -base64 32)`)",
    componente: AUDIT_STREAM,
  }),
  AUDIT_WEBHOOK_BATCH: setting(
    {
      tipo: "número",
      padrao: "`100`",
      descricao: "eventos por envio do webhook (1 a 1000)",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_WEBHOOK_BATCH", 1, 1000),
  ),
  AUDIT_WEBHOOK_TIMEOUT_MS: setting(
    {
      tipo: "número",
      padrao: "`10000`",
      descricao: "prazo de resposta do webhook",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_WEBHOOK_TIMEOUT_MS", 100, 120_000),
  ),
  AUDIT_SYSLOG_URL: setting({
    tipo: "endereço",
    padrao: "vazio",
    descricao: "envio da auditoria por syslog (RFC 5424): `tcp://servidor:porta` ou `tls://servidor:porta`",
    componente: AUDIT_STREAM,
  }),
  AUDIT_SYSLOG_CA: setting({
    tipo: "caminho",
    padrao: "vazio",
    descricao: "PEM da autoridade da empresa para o syslog em TLS; um arquivo ilegível impede o início",
    componente: AUDIT_STREAM,
  }),
  AUDIT_SYSLOG_BATCH: setting(
    {
      tipo: "número",
      padrao: "`200`",
      descricao: "eventos por envio do syslog (1 a 5000)",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_SYSLOG_BATCH", 1, 5000),
  ),
  AUDIT_STREAM_LEASE_MS: setting(
    {
      tipo: "número",
      padrao: "`6000`",
      descricao: "com várias instâncias, quanto tempo a que envia segura o destino (outra assume depois disso se ela morrer)",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_STREAM_LEASE_MS", 1000, 600_000),
  ),
  AUDIT_DESTINATION_KEY: setting(
    {
      tipo: "chave",
      padrao: "vazio (o painel não guarda destinos)",
      descricao:
        "32 bytes (`openssl rand -hex 32`), a mesma em todas as instâncias: cifra os segredos dos destinos de auditoria adicionados pelo painel (aba Integrações); sem ela o painel recusa guardar um destino",
      componente: AUDIT_STREAM,
    },
    key32Rule("AUDIT_DESTINATION_KEY"),
  ),
  AUDIT_DESTINATIONS_ALLOW_PRIVATE: setting(
    {
      tipo: "sim/não",
      padrao: "`false`",
      descricao: "`true` permite destinos do painel na rede interna (loopback, link-local, faixas privadas, serviço de metadados)",
      componente: AUDIT_STREAM,
    },
    yesNoRule("AUDIT_DESTINATIONS_ALLOW_PRIVATE"),
  ),
  AUDIT_STREAM_POLL_MS: setting(
    {
      tipo: "número",
      padrao: "`250`",
      descricao: "intervalo de busca de registros novos",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_STREAM_POLL_MS", 10, 60_000),
  ),
  AUDIT_STREAM_BACKOFF_MS: setting(
    {
      tipo: "número",
      padrao: "`500`",
      descricao: "primeira espera antes de repetir um envio (dobra a cada falha, com variação, até 1 min)",
      componente: AUDIT_STREAM,
    },
    integerBetweenRule("AUDIT_STREAM_BACKOFF_MS", 10, 60_000),
  ),
  SCIM_TOKEN: setting({
    tipo: "segredo",
    padrao: "vazio (SCIM desligado)",
    descricao:
      "token de portador do provisionamento pelo diretório (SCIM 2.0 em `/scim/v2`, veja docs/provisionamento.md); ≥ 32 caracteres, mais curto impede o início",
    componente: GATE,
  }),
  LOG_LEVEL: setting({
    tipo: "texto",
    padrao: "`info`",
    descricao: "nível do log (uma linha JSON por requisição): `fatal`, `error`, `warn`, `info`, `debug`, `trace`",
    componente: "gate, CLI",
  }),
  LOG_PRETTY: setting({
    tipo: "sim/não",
    padrao: "automático",
    descricao: "`1` linhas legíveis, `0` JSON, vazio = legível só num terminal",
    componente: "gate, CLI",
  }),
  METRICS_TOKEN: setting(
    {
      tipo: "segredo",
      padrao: "vazio",
      descricao: "abre `/metrics` (Prometheus) na porta principal com `Authorization: Bearer <token>` (≥ 24 caracteres)",
      componente: GATE,
    },
    metricsTokenRule,
  ),
  METRICS_PORT: setting(
    {
      tipo: "número",
      padrao: "vazio",
      descricao: "porta só de métricas, sempre em `127.0.0.1`, sem token",
      componente: GATE,
    },
    wholeNumberRule("METRICS_PORT", "de porta", 0, 65_535),
  ),
  READINESS_MIN_FREE_MB: setting(
    {
      tipo: "número",
      padrao: "`64`",
      descricao: "SQLite: `/readyz` responde 503 (`pouco espaço em disco`) com menos que isto livre no disco do banco; `0` desliga",
      componente: GATE,
    },
    wholeNumberRule("READINESS_MIN_FREE_MB", "de megabytes", 0, 1_048_576),
  ),
  RATE_LIMIT_MULTIPLIER: setting({
    tipo: "número",
    padrao: "`1`",
    descricao: "multiplica os limites de tentativas (testes e bench)",
    componente: GATE,
    interna: true,
  }),
  RATE_LIMIT_WINDOW_MS: setting({
    tipo: "número",
    padrao: "da regra",
    descricao: "janela dos limites de tentativas (testes)",
    componente: GATE,
    interna: true,
  }),
  B1_DIST_DIR: setting({
    tipo: "caminho",
    padrao: "`dist`",
    descricao: "pasta do site compilado (testes, versão anterior)",
    componente: GATE,
    interna: true,
  }),
  MIGRATIONS_DIR: setting({
    tipo: "caminho",
    padrao: "`db/migrations`",
    descricao: "migrações do SQLite (testes)",
    componente: "gate, CLI",
    interna: true,
  }),
  PG_MIGRATIONS_DIR: setting({
    tipo: "caminho",
    padrao: "`db/migrations-pg`",
    descricao: "migrações do PostgreSQL (testes)",
    componente: "gate, CLI",
    interna: true,
  }),
  B1_BENCH_TOGGLE_INSIGHTS: setting({
    tipo: "texto",
    padrao: "vazio",
    descricao: "bench: SIGUSR2 liga e desliga a contagem do Insights (`1`) ou não muda nada (`aa`)",
    componente: "gate (bench)",
    interna: true,
  }),
  NODE_OPTIONS: setting({
    tipo: "texto",
    padrao: "vazio",
    descricao: "opções do Node (o gate confere a proteção de `__proto__`)",
    componente: GATE,
    interna: true,
  }),
  B1_CLUSTER_PORT: setting({
    tipo: "número",
    padrao: "`20400`",
    descricao: "primeira das ~35 portas de loopback do `npm run cluster`",
    componente: "`npm run cluster`",
    interna: true,
  }),
});

export type Settings = z.infer<typeof settingsSchema>;
export type SettingName = keyof Settings;

/** Each setting's name and metadata, in declaration order. */
export function settingsCatalog(): { name: SettingName; meta: SettingMeta }[] {
  return (Object.keys(settingsSchema.shape) as SettingName[]).map((name) => ({
    name,
    meta: settingsSchema.shape[name].meta() as unknown as SettingMeta,
  }));
}

/**
 * The settings, checked as the start checks them: the first value that cannot work throws its Portuguese
 * refusal (the gate prints "Configuração inválida: …" and stops, as before the schema).
 */
export function validateSettings(env: Readonly<Record<string, string | undefined>> = process.env): Settings {
  const result = settingsSchema.safeParse(env);
  if (!result.success) throw new Error(result.error.issues[0]!.message);
  return result.data;
}

/** The Portuguese refusal of one setting's value by its rule in the schema, or null when it can work. */
export function settingProblem(name: SettingName, value: string | undefined): string | null {
  const result = settingsSchema.shape[name].safeParse(value);
  return result.success ? null : result.error.issues[0]!.message;
}

/** The declared settings from an environment (the process's by default); anything undeclared is dropped. */
export function readSettings(env: Readonly<Record<string, string | undefined>> = process.env): Settings {
  const settings: Record<string, string | undefined> = {};
  for (const name of Object.keys(settingsSchema.shape)) if (Object.hasOwn(env, name)) settings[name] = env[name];
  return settings as Settings;
}

/** One declared setting's raw value, read now (for code on a hot path, where parsing the whole schema would cost). */
export function readSetting(name: SettingName): string | undefined {
  return process.env[name];
}

/** The built site's folder: B1_DIST_DIR (tests, the previous release), else ./dist. */
export function distDir(): string {
  return path.resolve(readSetting("B1_DIST_DIR") ?? "dist");
}
