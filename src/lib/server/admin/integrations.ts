/**
 * The admin panel's "Integrações" tab: the audit streaming destinations' state and the three
 * actions on them (pause, resume, resend from a chain id or a date), each audited in the same
 * transaction as the change it records.
 */
import "../platform/zod-locale.ts";
import { z } from "zod";
import { writeAuditLog } from "../audit/audit.ts";
import { configuredDestinations } from "../audit/stream/deliverer.ts";
import { destinationStates, resendFrom, setPaused, type DestinationName } from "../audit/stream/state.ts";
import { config } from "../config/config.ts";
import type { Db } from "../data/db.ts";
import { parseDateBound } from "../../audit/date-bound.ts";
import { refuse, type Actor, type AdminResult } from "./result.ts";
import type { IntegrationView } from "../../admin/types.ts";

export type { IntegrationView };

export async function integrationViews(db: Db): Promise<IntegrationView[]> {
  const destinations = configuredDestinations(config().auditStream);
  const states = await destinationStates(
    db,
    destinations.map((destination) => destination.name),
  );
  const now = Date.now();
  return states.map((state) => ({
    name: state.name as DestinationName,
    target: destinations.find((destination) => destination.name === state.name)!.target,
    deliveredId: state.deliveredId,
    deliveredAt: state.deliveredAt,
    headId: state.headId,
    lagEvents: state.lagEvents,
    lagSeconds: Math.round(state.lagSeconds * 10) / 10,
    paused: state.paused === 1,
    stoppedReason: state.stoppedReason,
    lastError: state.lastError,
    lastErrorAt: state.lastErrorAt,
    delivering: state.leaseOwner !== null && state.leaseUntil > now,
  }));
}

const MAX_CHAIN_ID = 2 ** 31 - 1;

export const integrationActionSchema = z.strictObject({
  destination: z.enum(["webhook", "syslog"], { error: "Destino inválido" }),
  action: z.enum(["pause", "resume", "resend"], { error: "Ação inválida" }),
  /** For resend: a chain id (digits) or a date (AAAA-MM-DD, or with a time). */
  from: z.string().trim().max(40, "Informe um número de registro ou uma data").optional(),
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

export async function applyIntegrationAction(db: Db, input: IntegrationAction, actor: Actor): Promise<AdminResult<{ message: string }>> {
  const configured = configuredDestinations(config().auditStream).some((destination) => destination.name === input.destination);
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
    await writeAuditLog(tx, { ...actor, actionType: ACTION_TYPES[input.action], result: "success", details });
    return { ok: true, value: { message } } as const;
  });
}
