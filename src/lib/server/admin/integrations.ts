/**
 * The admin panel's "Integrações" tab: the audit streaming destinations' state and the three
 * actions on them (pause, resume, resend from a chain id or a date), each audited in the same
 * transaction as the change it records.
 */
import "../platform/zod-locale.ts";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { auditDestinations } from "../../../../db/schema/index.ts";
import { writeAuditLog } from "../audit/audit.ts";
import { configuredDestinations } from "../audit/stream/deliverer.ts";
import { assertPublicHost, BlockedAddressError, BLOCKED_MESSAGE } from "../audit/stream/guard.ts";
import {
  ENV_VARIABLE,
  envConfigured,
  generateSecret,
  KEY_MISSING,
  panelSyslogSettings,
  panelWebhookSettings,
  sealSecret,
} from "../audit/stream/panel.ts";
import { displayUrl, testSyslog, testWebhook, type TestAnswer } from "../audit/stream/senders.ts";
import { DESTINATION_NAMES, destinationStates, resendFrom, setPaused, type DestinationName } from "../audit/stream/state.ts";
import { config } from "../config/config.ts";
import type { Db } from "../data/db.ts";
import { parseDateBound } from "../../audit/date-bound.ts";
import { refuse, type Actor, type AdminResult } from "./result.ts";
import type { IntegrationView } from "../../admin/types.ts";

export type { IntegrationView };

/** A panel destination's address as shown: a webhook's without its query (it may hold a token); a syslog URL as is. */
function panelTarget(name: DestinationName, url: string): string {
  return name === "webhook" ? displayUrl(url) : url;
}

export async function integrationViews(db: Db): Promise<IntegrationView[]> {
  const settings = config().auditStream;
  const destinations = configuredDestinations(settings);
  const states = (await destinationStates(db, DESTINATION_NAMES)).filter(
    (state) => envConfigured(settings, state.name as DestinationName) || state.url !== null,
  );
  const now = Date.now();
  return states.map((state) => ({
    name: state.name as DestinationName,
    target:
      destinations.find((destination) => destination.name === state.name)?.target ?? panelTarget(state.name as DestinationName, state.url!),
    lockedBy: envConfigured(settings, state.name as DestinationName) ? ENV_VARIABLE[state.name as DestinationName] : null,
    previousSecretUntil: state.previousSecretSealed && (state.previousUntil ?? 0) > now ? state.previousUntil : null,
    deliveredId: state.deliveredId,
    deliveredAt: state.deliveredAt,
    headId: state.headId,
    lagEvents: state.lagEvents,
    lagSeconds: Math.round(state.lagSeconds * 10) / 10,
    paused: state.paused === 1,
    // A panel destination on a server without the key is not delivered here (no loop watches it): say so.
    stoppedReason:
      !envConfigured(settings, state.name as DestinationName) && !settings.destinationKey
        ? "Não entregue: falta a chave AUDIT_DESTINATION_KEY neste servidor (veja docs/implantacao.md)"
        : state.stoppedReason,
    lastError: state.lastError,
    lastErrorAt: state.lastErrorAt,
    delivering: state.leaseOwner !== null && state.leaseUntil > now,
  }));
}

const MAX_CHAIN_ID = 2 ** 31 - 1;

export const integrationActionSchema = z.strictObject({
  destination: z.enum(["webhook", "syslog"], { error: "Destino inválido" }),
  action: z.enum(["pause", "resume", "resend", "create", "update", "remove", "rotate", "test"], { error: "Ação inválida" }),
  /** For resend: a chain id (digits) or a date (AAAA-MM-DD, or with a time). */
  from: z.string().trim().max(40, "Informe um número de registro ou uma data").optional(),
  /** For create and update: the receiver's address. */
  url: z.string().max(2000, "O endereço pode ter no máximo 2000 caracteres").optional(),
  /** For rotate: hours the previous secret still signs (0 to 168). */
  graceHours: z
    .number({ error: "Informe as horas de carência (0 a 168)" })
    .int("Informe as horas de carência (0 a 168)")
    .min(0, "Informe as horas de carência (0 a 168)")
    .max(168, "Informe as horas de carência (0 a 168)")
    .optional(),
});

export type IntegrationAction = z.infer<typeof integrationActionSchema>;

/** A resend's start: a chain id, or a date (in the display time zone) read as its first instant. */
function resendStart(from: string | undefined): { id: number } | { time: number } | null {
  const text = from ?? "";
  if (/^\d{1,10}$/.test(text)) {
    const id = Number(text);
    return id >= 1 && id <= MAX_CHAIN_ID ? { id } : null;
  }
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? parseDateBound(text, config().tzDisplay, "start") : undefined;
  return time !== undefined && Number.isFinite(time) ? { time } : null;
}

const ACTION_TYPES = { pause: "audit_stream_paused", resume: "audit_stream_resumed", resend: "audit_stream_resend" } as const;

export async function applyIntegrationAction(
  db: Db,
  input: IntegrationAction,
  actor: Actor,
): Promise<AdminResult<{ message: string; secret?: string; test?: TestAnswer }>> {
  if (input.action === "create" || input.action === "update" || input.action === "remove" || input.action === "rotate")
    return changeDestination(db, input, actor);
  if (input.action === "test") return testDestination(db, input.destination, actor);
  const settings = config().auditStream;
  const configured = envConfigured(settings, input.destination) || (await panelRow(db, input.destination))?.url;
  if (!configured) return refuse(404, "Destino não configurado neste servidor");
  let start: { id: number } | { time: number } | null = null;
  if (input.action === "resend") {
    start = resendStart(input.from);
    if (!start) return refuse(400, "Informe um número de registro (1 ou mais) ou uma data (AAAA-MM-DD)", "from");
  }
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    let message: string;
    let details: Record<string, unknown> = { destination: input.destination };
    if (input.action === "resend") {
      const resend = await resendFrom(txDb, input.destination, start!);
      if (resend === null) return refuse(404, "Destino não encontrado");
      details = { ...details, from: input.from, cursor: resend.cursor, ...(resend.nothing ? { nothing: true } : {}) };
      message = resend.nothing
        ? "Nenhum registro a partir dessa data: nada a reenviar"
        : `Reenvio a partir do registro ${resend.cursor + 1}`;
    } else {
      if (!(await setPaused(txDb, input.destination, input.action === "pause"))) return refuse(404, "Destino não encontrado");
      message = input.action === "pause" ? "Envio pausado" : "Envio retomado";
    }
    await writeAuditLog(tx, { ...actor, actionType: ACTION_TYPES[input.action as keyof typeof ACTION_TYPES], result: "success", details });
    return { ok: true, value: { message } } as const;
  });
}

/** A destination's row, or undefined. */
async function panelRow(db: Db, name: DestinationName) {
  return db.transaction(async (tx) => (await tx.select().from(auditDestinations).where(eq(auditDestinations.name, name)))[0]);
}

/** Printable ASCII only: a control, bidi or zero-width character is never part of a real receiver's address. */
const PRINTABLE = /^[\x21-\x7e]+$/;

const URL_HINT = {
  webhook: "Informe um endereço http:// ou https:// (por exemplo https://coletor.empresa.com/b1)",
  syslog: "Informe tcp://servidor:porta ou tls://servidor:porta (por exemplo tls://siem.empresa.com:6514)",
} as const;

/** The address checked: scheme, form, no credentials, and (unless allowed) no address inside the network. */
async function checkedUrl(name: DestinationName, text: string | undefined): Promise<{ url: string } | { error: string }> {
  const trimmed = (text ?? "").trim();
  if (!trimmed) return { error: URL_HINT[name] };
  if (!PRINTABLE.test(trimmed)) return { error: "O endereço tem caracteres invisíveis, de controle ou acentuados: digite-o de novo" };
  const parsed = URL.parse(trimmed);
  const schemes = name === "webhook" ? ["http:", "https:"] : ["tcp:", "tls:"];
  if (!parsed || !schemes.includes(parsed.protocol) || !parsed.hostname) return { error: URL_HINT[name] };
  if (name === "syslog" && (!parsed.port || parsed.pathname.replace(/^\//, "") || parsed.search || parsed.hash))
    return { error: URL_HINT.syslog };
  if (parsed.username || parsed.password)
    return { error: "O endereço não pode ter usuário nem senha: o receptor confere a assinatura (webhook-signature)" };
  if (!config().auditStream.allowPrivate) {
    try {
      await assertPublicHost(parsed.hostname);
    } catch (error) {
      if (error instanceof BlockedAddressError) return { error: BLOCKED_MESSAGE };
      return { error: `Não foi possível resolver o nome ${parsed.hostname}: confira o endereço` };
    }
  }
  return { url: name === "webhook" ? parsed.href : `${parsed.protocol}//${parsed.host}` };
}

const CHANGE_ACTIONS = {
  create: "audit_destination_created",
  update: "audit_destination_updated",
  remove: "audit_destination_removed",
  rotate: "audit_destination_secret_rotated",
} as const;

/** What an audit row says about a destination's settings: the address shown to admins, never a secret. */
function described(name: DestinationName, row: { url: string | null; paused: number } | undefined) {
  if (!row?.url) return null;
  return { url: panelTarget(name, row.url), paused: row.paused === 1, secret: name === "webhook" ? "[oculto]" : undefined };
}

/**
 * Adds, edits, removes a panel destination or rotates its secret: each one conditional statement and its audit
 * row in one transaction (50 parallel identical creates make one destination: the row's name is its key).
 */
async function changeDestination(
  db: Db,
  input: IntegrationAction,
  actor: Actor,
): Promise<AdminResult<{ message: string; secret?: string }>> {
  const settings = config().auditStream;
  const name = input.destination;
  if (envConfigured(settings, name))
    return refuse(
      409,
      `Este destino é definido pela variável ${ENV_VARIABLE[name]} no servidor: altere-o no ambiente (o painel só o mostra)`,
    );
  if (!settings.destinationKey) return refuse(409, KEY_MISSING);
  const key = settings.destinationKey;
  if (input.action === "rotate" && name !== "webhook") return refuse(400, "Só o webhook tem segredo de assinatura");
  let url: string | null = null;
  if (input.action === "create" || input.action === "update") {
    const checked = await checkedUrl(name, input.url);
    if ("error" in checked) return refuse(400, checked.error, "url");
    url = checked.url;
  }
  const secret = name === "webhook" && (input.action === "create" || input.action === "rotate") ? generateSecret() : null;
  const now = Date.now();
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(auditDestinations).where(eq(auditDestinations.name, name));
    const current = and(eq(auditDestinations.name, name), isNotNull(auditDestinations.url));
    let written: { url: string | null; paused: number }[];
    let message: string;
    if (input.action === "create") {
      const values = {
        url,
        secretSealed: secret ? sealSecret(key, name, secret.bytes) : null,
        previousSecretSealed: null,
        previousUntil: null,
        paused: 0,
        stoppedReason: null,
        lastError: null,
        lastErrorAt: null,
        updatedAt: now,
      };
      written = await tx
        .insert(auditDestinations)
        .values({ name, ...values, configVersion: 1 })
        .onConflictDoUpdate({
          target: auditDestinations.name,
          set: { ...values, configVersion: sql`${auditDestinations.configVersion} + 1` },
          setWhere: isNull(auditDestinations.url),
        })
        .returning({ url: auditDestinations.url, paused: auditDestinations.paused });
      if (written.length === 0) return refuse(409, "Já existe um destino deste tipo: edite-o ou remova-o antes");
      message = "Destino adicionado";
    } else if (input.action === "remove") {
      written = await tx
        .delete(auditDestinations)
        .where(current)
        .returning({ url: auditDestinations.url, paused: auditDestinations.paused });
      message = "Destino removido";
    } else {
      const set =
        input.action === "update"
          ? { url, stoppedReason: null, lastError: null, lastErrorAt: null }
          : {
              secretSealed: sealSecret(key, name, secret!.bytes),
              previousSecretSealed: (input.graceHours ?? 24) > 0 ? sql`${auditDestinations.secretSealed}` : null,
              previousUntil: (input.graceHours ?? 24) > 0 ? now + (input.graceHours ?? 24) * 3_600_000 : null,
            };
      written = await tx
        .update(auditDestinations)
        .set({ ...set, configVersion: sql`${auditDestinations.configVersion} + 1`, updatedAt: now })
        .where(current)
        .returning({ url: auditDestinations.url, paused: auditDestinations.paused });
      message = input.action === "update" ? "Destino alterado" : "Novo segredo gerado";
    }
    if (written.length === 0) return refuse(404, "Destino não configurado neste servidor");
    const after = input.action === "remove" ? null : described(name, written[0]);
    await writeAuditLog(tx, {
      ...actor,
      actionType: CHANGE_ACTIONS[input.action as keyof typeof CHANGE_ACTIONS],
      result: "success",
      details: {
        destination: name,
        before: described(name, before),
        after,
        ...(input.action === "rotate" ? { graceHours: input.graceHours ?? 24 } : {}),
      },
    });
    return { ok: true, value: { message, ...(secret ? { secret: secret.text } : {}) } } as const;
  });
}

/** Destinations being tested on this instance: one test at a time each (a test waits up to the receiver's timeout). */
const testing = new Set<DestinationName>();

/** "Enviar evento de teste": one signed test event to the destination; the answer's status and a short excerpt. */
async function testDestination(db: Db, name: DestinationName, actor: Actor): Promise<AdminResult<{ message: string; test: TestAnswer }>> {
  const settings = config().auditStream;
  let target: Parameters<typeof testWebhook>[0] | Parameters<typeof testSyslog>[0] | string;
  if (envConfigured(settings, name)) target = name === "webhook" ? settings.webhook! : settings.syslog!;
  else {
    const row = await panelRow(db, name);
    if (!row?.url) return refuse(404, "Destino não configurado neste servidor");
    target = name === "webhook" ? panelWebhookSettings(row, settings) : panelSyslogSettings(row, settings);
  }
  if (typeof target === "string") return refuse(409, target);
  if (testing.has(name)) return refuse(429, "Um teste deste destino já está em andamento: aguarde a resposta");
  testing.add(name);
  let test: TestAnswer;
  try {
    test =
      name === "webhook"
        ? await testWebhook(target as Parameters<typeof testWebhook>[0])
        : await testSyslog(target as Parameters<typeof testSyslog>[0]);
  } finally {
    testing.delete(name);
  }
  await writeAuditLog(db, {
    ...actor,
    actionType: "audit_destination_tested",
    result: test.ok ? "success" : "failure",
    details: { destination: name, status: test.status },
  });
  return {
    ok: true,
    value: { message: test.ok ? "O receptor aceitou o evento de teste" : "O receptor não aceitou o evento de teste", test },
  };
}
