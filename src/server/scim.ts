/**
 * The gate's SCIM edge: `/scim/v2/*` is answered here, not by the Astro adapter. The directory is
 * a machine with a bearer token, not a browser: no session cookie is read and no Origin check
 * applies (no cookie means no cross-site forgery to guard against). The token is checked before a
 * byte of the body is read; the provisioning domain does the rest.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Db } from "../lib/server/data/db.ts";
import type { ScimSettings } from "../lib/server/config/scim.ts";
import { isAcceptedScimToken } from "../lib/server/provisioning/bearer-token.ts";
import { answerScimRequest } from "../lib/server/provisioning/router.ts";
import { SCIM_CONTENT_TYPE, SCIM_MAX_BODY_BYTES, scimError, type ScimAnswer } from "../lib/server/provisioning/protocol.ts";
import type { Socket } from "node:net";
import {
  FORBIDDEN_KEY_MESSAGE,
  hasNulCharacter,
  NUL_BODY_MESSAGE,
  NUL_QUERY_MESSAGE,
  TOO_DEEP_MESSAGE,
  unsafeJsonShape,
} from "../lib/server/http/http.ts";
import { closeAfterAnswer, declaresTooLarge } from "./body-limit.ts";

export const SCIM_PREFIX = "/scim/v2";

export const isScimPath = (path: string) => path === SCIM_PREFIX || path.startsWith(`${SCIM_PREFIX}/`);

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Answer one body refusal: the connection closes once it is written (the rest of the upload is discarded, not read). */
const TOO_LARGE = () => scimError(413, `Corpo da requisição grande demais (máximo de ${SCIM_MAX_BODY_BYTES / 1024 / 1024} MiB).`);

/**
 * The body as JSON; refused when too large (declared or streamed past the limit), not JSON, shaped
 * to reach a prototype or nested too deep, or carrying a NUL character (the answer says which).
 * Chunks are read through an iterator that does not destroy the socket when reading stops early,
 * so the 413 is always written (a `return` inside `for await` on the request destroyed it).
 */
async function readJsonBody(
  req: IncomingMessage,
  socket: Socket,
): Promise<{ ok: true; body: unknown } | { ok: false; answer: ScimAnswer }> {
  if (declaresTooLarge(req, SCIM_MAX_BODY_BYTES)) {
    closeAfterAnswer(socket);
    return { ok: false, answer: TOO_LARGE() };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SCIM_MAX_BODY_BYTES) {
      closeAfterAnswer(socket);
      return { ok: false, answer: TOO_LARGE() };
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, answer: scimError(400, "Corpo inválido: JSON mal formado.", "invalidSyntax") };
  }
  const unsafe = unsafeJsonShape(body);
  if (unsafe) return { ok: false, answer: scimError(400, unsafe === "key" ? FORBIDDEN_KEY_MESSAGE : TOO_DEEP_MESSAGE, "invalidSyntax") };
  // PostgreSQL refuses NUL in text; no attribute of a person or group has a use for it.
  if (hasNulCharacter(text, body)) return { ok: false, answer: scimError(400, NUL_BODY_MESSAGE, "invalidValue") };
  return { ok: true, body };
}

export interface ScimEdge {
  db: Db;
  settings: ScimSettings;
  publicUrl: string;
  logger: Logger;
  headers: Record<string, string>;
  clientIp: (req: IncomingMessage) => string | null;
}

function send(res: ServerResponse, edge: ScimEdge, answer: ScimAnswer, extra: Record<string, string> = {}) {
  for (const [name, value] of Object.entries(edge.headers)) res.setHeader(name, value);
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  res.setHeader("Cache-Control", "no-store");
  if (answer.location) res.setHeader("Location", answer.location);
  if (answer.etag) res.setHeader("ETag", answer.etag);
  if (answer.body === undefined) {
    res.writeHead(answer.status);
    res.end();
    return;
  }
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { "Content-Type": `${SCIM_CONTENT_TYPE}; charset=utf-8`, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** A precondition header as one value (Node joins repeated ones with ", ", the list form they have anyway). */
const oneHeader = (value: string | string[] | undefined) => (value === undefined ? null : Array.isArray(value) ? value.join(", ") : value);

/** Answers one `/scim/v2/*` request (the gate has normalised `path`). */
export async function handleScimRequest(edge: ScimEdge, req: IncomingMessage, res: ServerResponse, path: string, query: string) {
  const method = req.method ?? "GET";
  if (!isAcceptedScimToken(edge.settings, req.headers.authorization)) {
    edge.logger.warn({ path, method, ip: edge.clientIp(req) }, "scim: token ausente ou inválido");
    if (WRITE_METHODS.has(method)) res.setHeader("Connection", "close");
    return send(res, edge, scimError(401, "Token de acesso ausente ou inválido."), { "WWW-Authenticate": 'Bearer realm="scim"' });
  }
  if (query.includes("%00")) return send(res, edge, scimError(400, NUL_QUERY_MESSAGE));
  let body: unknown = null;
  if (WRITE_METHODS.has(method)) {
    const socket = req.socket;
    const read = await readJsonBody(req, socket);
    if (!read.ok) {
      res.setHeader("Connection", "close");
      return send(res, edge, read.answer);
    }
    body = read.body;
  }
  // The gate's normalised path is already decoded.
  const segments = path.slice(SCIM_PREFIX.length).split("/").filter(Boolean);
  const ctx = {
    db: edge.db,
    settings: edge.settings,
    baseUrl: `${edge.publicUrl}${SCIM_PREFIX}`,
    meta: { ipAddress: edge.clientIp(req), userAgent: req.headers["user-agent"] ?? null },
  };
  const answer = await answerScimRequest(ctx, {
    method,
    segments,
    query: new URLSearchParams(query.replace(/^\?/, "")),
    body,
    ifMatch: oneHeader(req.headers["if-match"]),
    ifNoneMatch: oneHeader(req.headers["if-none-match"]),
  });
  return send(res, edge, answer);
}
