/**
 * The two ways audit events leave the portal: a Standard Webhooks request (signed as the
 * `standardwebhooks` package signs, with node:crypto's HMAC) and RFC 5424 syslog over TCP or TLS (RFC 6587 octet counting,
 * RFC 5425). A sender either resolves (the batch was taken) or throws a DeliveryError saying
 * whether to retry (and when) or to stop until an administrator resumes.
 */
import { createHmac } from "node:crypto";
import type dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import tls from "node:tls";
import type { AuditSyslogSettings, AuditWebhookSettings } from "../../config/audit-stream.ts";
import { octetCounted, syslogMessage, type AuditEvent } from "./event.ts";
import { bareHost, blockedAddress, BlockedAddressError, guardedLookup } from "./guard.ts";

export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly kind: "retry" | "stop",
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Why a panel destination stopped: its address resolves inside the network now (guard.ts); a retry would be refused again. */
const BLOCKED_STOP =
  "Endereço do receptor resolve para a rede interna (recusado); a entrega parou até um administrador corrigir o endereço";

/** Why a send was cut: its instance could not renew the destination's lease in time (another may take it). */
export const LEASE_LOST = "Envio interrompido: o arrendamento do destino não pôde ser renovado a tempo";

export interface Sender {
  name: "webhook" | "syslog";
  batchSize: number;
  /** `held` aborts once the destination's lease can no longer be counted on (deliverer.ts): the send ends then. */
  send(events: readonly AuditEvent[], held?: AbortSignal): Promise<void>;
  close(): void;
}

/** Retry-After is honoured up to this long (a receiver asking for a day would stall the SIEM's copy). */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (!Number.isFinite(date) || !/[a-z]/i.test(text)) return null;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** The receiver's address as shown to administrators: no user, password or query (they may hold a token). */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * The Standard Webhooks signature (`v1,` base64 HMAC-SHA256 of `id.seconds.body`), byte for byte the
 * `standardwebhooks` package's `sign` (a test holds them equal, and the tests' receiver verifies with the
 * package). Signed here with node:crypto: the package's pure-JavaScript SHA-256 was a tenth of the
 * delivery thread's CPU in the bench's profile, and it copied each batch's body once more to sign it.
 */
export function webhookSignature(key: Uint8Array, id: string, at: Date, body: string): string {
  const seconds = Math.floor(at.getTime() / 1000);
  return `v1,${createHmac("sha256", key).update(`${id}.${seconds}.`).update(body).digest("base64")}`;
}

/**
 * The `webhook-signature` header: one `v1,` signature per key, space-separated (Standard Webhooks), so during
 * a rotation's grace period a receiver still holding the previous secret verifies with it.
 */
export function webhookSignatures(settings: AuditWebhookSettings, id: string, at: Date, body: string): string {
  const signatures = [webhookSignature(settings.secret, id, at, body)];
  if (settings.previousSecret && (settings.previousUntil ?? 0) > at.getTime())
    signatures.push(webhookSignature(settings.previousSecret, id, at, body));
  return signatures.join(" ");
}

/** A webhook request's headers: the Standard Webhooks id, timestamp and signature(s). */
function signedHeaders(settings: AuditWebhookSettings, id: string, now: Date, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "B1-Method-Hub-Audit/1",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": webhookSignatures(settings, id, now, body),
  };
}

/** At most this much of a receiver's answer is read (it is only drained): more, and the connection is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** The receiver's answer: its status and Retry-After (the body is drained; kept, up to EXCERPT_BYTES, only when asked). */
interface WebhookAnswer {
  status: number;
  retryAfter: string | null;
  excerpt: Promise<string>;
}

/** How much of a test's answer is shown to the admin. */
const EXCERPT_BYTES = 300;

/** A receiver's text as an admin may see it: no control or bidi characters, at most EXCERPT_BYTES. */
export function cleanExcerpt(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g, " ")
    .trim()
    .slice(0, EXCERPT_BYTES);
}

/** A panel destination whose host is an address literal: checked here (no lookup happens for it). */
function refuseBlockedLiteral(host: string, guarded: boolean | undefined): void {
  const bare = bareHost(host);
  if (guarded && net.isIP(bare) && blockedAddress(bare)) throw new BlockedAddressError();
}

/**
 * One POST over node:http(s) on a keep-alive connection of the sender's own. Not fetch: per batch, undici's
 * fetch cost the delivery thread about 0.7 ms more CPU (the bench's profile; docs/decisions.md).
 * `signal` bounds the wait for the answer's status line and headers. A URL's user and password, if any, go as HTTP Basic.
 */
function post(
  url: URL,
  agent: http.Agent,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  guarded = false,
): Promise<WebhookAnswer> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    refuseBlockedLiteral(url.hostname, guarded);
    const request = client.request(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        signal,
        ...(guarded ? { lookup: guardedLookup as unknown as typeof dns.lookup } : {}),
      },
      (response) => {
        let bytes = 0;
        const kept: Buffer[] = [];
        let settle: (text: string) => void = () => undefined;
        const excerpt = new Promise<string>((done) => (settle = done));
        const finish = () => settle(Buffer.concat(kept).toString("utf8"));
        response.on("data", (chunk: Buffer) => {
          if (bytes < EXCERPT_BYTES * 4) kept.push(chunk.subarray(0, EXCERPT_BYTES * 4 - bytes));
          bytes += chunk.length;
          if (bytes > MAX_RESPONSE_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", () => undefined);
        const retryAfter = response.headers["retry-after"];
        resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === "string" ? retryAfter : null, excerpt });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export function createWebhookSender(settings: AuditWebhookSettings): Sender {
  const url = new URL(settings.url);
  // One connection, kept open between batches (a batch is sent only after the last one's answer).
  const agent = new (url.protocol === "https:" ? https : http).Agent({ keepAlive: true, maxSockets: 1 });
  return {
    name: "webhook",
    batchSize: settings.batchSize,
    async send(events, held) {
      const first = events[0]!.id;
      const last = events.at(-1)!.id;
      // The message id names the batch's chain ids: a retry of the same rows carries the same id.
      const id = `${first}-${last}`;
      const now = new Date();
      const body = JSON.stringify({ type: "b1.audit.batch", timestamp: now.toISOString(), data: { events } });
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const signal = held ? AbortSignal.any([timeout, held]) : timeout;
      let answer: WebhookAnswer;
      try {
        answer = await post(url, agent, signedHeaders(settings, id, now, body), body, signal, settings.guarded);
      } catch (error) {
        // An address inside the network, now: the receiver's DNS changed (rebinding); a retry would be refused again.
        if (error instanceof BlockedAddressError) throw new DeliveryError(BLOCKED_STOP, "stop");
        throw new DeliveryError(
          held?.aborted ? LEASE_LOST : timeout.aborted ? `Sem resposta em ${settings.timeoutMs} ms` : `Falha de conexão: ${causeOf(error)}`,
          "retry",
        );
      }
      const { status } = answer;
      if (status >= 200 && status < 300) return;
      if (status === 408 || status === 429 || status >= 500) {
        throw new DeliveryError(`O receptor respondeu HTTP ${status}`, "retry", parseRetryAfter(answer.retryAfter));
      }
      throw new DeliveryError(`O receptor recusou com HTTP ${status}; a entrega parou até um administrador retomar (Integrações)`, "stop");
    },
    close() {
      agent.destroy();
    },
  };
}

/** The answer to "Enviar evento de teste": the receiver's status (null for syslog, which never answers) and a short excerpt. */
export interface TestAnswer {
  ok: boolean;
  status: number | null;
  excerpt: string;
}

/** A test event: its type says it is not an audit row (a receiver may drop it), and its id 0 is no chain id. */
function testEvent(now: Date): AuditEvent {
  return {
    id: 0,
    type: "b1.audit",
    time: now.toISOString(),
    action: "audit_destination_test",
    actionLabel: "Evento de teste",
    result: "success",
    resultLabel: "Sucesso",
    actor: { userId: null, email: null, name: null, label: "B1 Method Hub" },
    target: null,
    ip: null,
    userAgent: null,
    details: { test: true },
    detailsText: null,
    createdAtMs: now.getTime(),
    hash: null,
    prevHash: "",
    instance: os.hostname(),
    sentAt: now.toISOString(),
  };
}

/** Sends one signed test request; never throws: a failure is an answer with its reason. */
export async function testWebhook(settings: AuditWebhookSettings): Promise<TestAnswer> {
  const url = new URL(settings.url);
  const agent = new (url.protocol === "https:" ? https : http).Agent({ keepAlive: false });
  const now = new Date();
  const id = `test-${now.getTime()}`;
  const body = JSON.stringify({ type: "b1.audit.test", timestamp: now.toISOString(), data: { events: [testEvent(now)] } });
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const answer = await post(url, agent, signedHeaders(settings, id, now, body), body, timeout, settings.guarded);
    const excerpt = cleanExcerpt(await Promise.race([answer.excerpt, new Promise<string>((done) => setTimeout(() => done(""), 2000))]));
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, excerpt };
  } catch (error) {
    if (error instanceof BlockedAddressError) return { ok: false, status: null, excerpt: error.message };
    return {
      ok: false,
      status: null,
      excerpt: timeout.aborted ? `Sem resposta em ${settings.timeoutMs} ms` : `Falha de conexão: ${cleanExcerpt(causeOf(error))}`,
    };
  } finally {
    agent.destroy();
  }
}

/** Writes one test message to the collector (syslog has no answer: taken once the connection stays up). */
export async function testSyslog(settings: AuditSyslogSettings): Promise<TestAnswer> {
  const sender = createSyslogSender(settings);
  try {
    await sender.send([testEvent(new Date())]);
    return { ok: true, status: null, excerpt: "Conexão aceita; a mensagem de teste foi escrita e a conexão continuou aberta" };
  } catch (error) {
    return { ok: false, status: null, excerpt: cleanExcerpt((error as Error).message) };
  } finally {
    sender.close();
  }
}

function causeOf(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") return code;
  return typeof message === "string" ? message : String(error);
}

/** After writing a batch, the connection must stay open this long for the batch to count as taken. */
export const SYSLOG_CONFIRM_MS = 300;
const SYSLOG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Syslog has no acknowledgement (RFC 6587): a batch counts as delivered once written and the
 * connection stayed up for SYSLOG_CONFIRM_MS after it. A collector that closed or reset the
 * connection meanwhile (restart, crash) gets the batch again on a new connection: at least once.
 */
export function createSyslogSender(settings: AuditSyslogSettings): Sender {
  let socket: net.Socket | null = null;
  let broken: string | null = null;
  /** The connection being made, if any (a lost lease destroys it). */
  let connecting: net.Socket | null = null;
  const hostname = os.hostname();
  const procId = String(process.pid);

  function connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      try {
        refuseBlockedLiteral(settings.host, settings.guarded);
      } catch (error) {
        return reject(error as Error);
      }
      const options = {
        host: settings.host,
        port: settings.port,
        ...(settings.guarded ? { lookup: guardedLookup as unknown as typeof dns.lookup } : {}),
      };
      const fresh = settings.tls
        ? tls.connect({
            ...options,
            servername: net.isIP(settings.host) ? undefined : settings.host,
            ...(settings.ca ? { ca: settings.ca } : {}),
          })
        : net.connect(options);
      connecting = fresh;
      fresh.once("close", () => connecting === fresh && (connecting = null));
      const timer = setTimeout(() => fresh.destroy(new Error("tempo esgotado ao conectar")), SYSLOG_CONNECT_TIMEOUT_MS);
      fresh.once(settings.tls ? "secureConnect" : "connect", () => {
        clearTimeout(timer);
        connecting = null;
        broken = null;
        fresh.setKeepAlive(true, 10_000);
        fresh.on("error", (error) => (broken = error.message));
        fresh.on("close", () => (broken ??= "conexão fechada pelo coletor"));
        // The collector sends nothing; anything it does send is read and dropped.
        fresh.on("data", () => undefined);
        resolve(fresh);
      });
      fresh.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  function drop() {
    socket?.destroy();
    socket = null;
  }

  return {
    name: "syslog",
    batchSize: settings.batchSize,
    async send(events, held) {
      // A lease that could not be renewed ends the send where it is (a connection being made or a write waiting).
      const cut = () => {
        broken = LEASE_LOST;
        socket?.destroy();
        connecting?.destroy(new Error(LEASE_LOST));
      };
      if (held?.aborted) throw new DeliveryError(LEASE_LOST, "retry");
      held?.addEventListener("abort", cut, { once: true });
      try {
        return await sendFrames(events);
      } finally {
        held?.removeEventListener("abort", cut);
      }
    },
    close() {
      drop();
    },
  };

  async function sendFrames(events: readonly AuditEvent[]): Promise<void> {
    try {
      if (!socket || broken !== null || socket.destroyed) {
        drop();
        socket = await connect();
      }
    } catch (error) {
      drop();
      if (error instanceof BlockedAddressError) throw new DeliveryError(BLOCKED_STOP, "stop");
      throw new DeliveryError(`Falha ao conectar ao coletor syslog: ${(error as Error).message}`, "retry");
    }
    const current = socket;
    const frames = Buffer.concat(events.map((event) => octetCounted(syslogMessage(event, hostname, procId))));
    try {
      await new Promise<void>((resolve, reject) => current.write(frames, (error) => (error ? reject(error) : resolve())));
      await new Promise((resolve) => setTimeout(resolve, SYSLOG_CONFIRM_MS));
    } catch (error) {
      broken ??= (error as Error).message;
    }
    if (broken !== null || current.destroyed) {
      const reason = broken ?? "conexão fechada";
      drop();
      throw new DeliveryError(reason === LEASE_LOST ? LEASE_LOST : `Conexão com o coletor syslog caiu: ${reason}`, "retry");
    }
  }
}
