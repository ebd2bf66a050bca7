import type { Logger } from "pino";
import { isDatabaseUnavailable } from "../data/faults.ts";
import { jsonResponse } from "./http.ts";

/** What a client is told to wait before retrying while the database is away (`Retry-After`, seconds). */
export const RETRY_AFTER_SECONDS = 5;

export const UNAVAILABLE_MESSAGE = "Serviço temporariamente indisponível: o banco de dados não responde. Tente novamente em instantes.";
export const INTERNAL_ERROR_MESSAGE = "Ocorreu um erro inesperado. Se precisar de ajuda, informe o código ao suporte.";

/** Where a request stood when it failed, for its log line. */
export interface FailedRequest {
  reqId: string | undefined;
  method: string | undefined;
  path: string | null | undefined;
}

/** How to answer a request whose handling threw: its status, JSON body and extra headers. */
export interface FailureAnswer {
  status: 500 | 503;
  body: { error: string; requestId?: string };
  headers: Record<string, string>;
}

/**
 * Logs a request's uncaught error once, with its request id, and says how to answer it: the
 * database being away or unable to write is a 503 the client may retry (a warning, no stack: an
 * outage would flood the log with identical ones); anything else is a 500 carrying the request
 * id, the log line holding the detail.
 */
export function answerFailure(logger: Logger, error: unknown, request: FailedRequest): FailureAnswer {
  if (isDatabaseUnavailable(error)) {
    // The driver's own error (drizzle wraps it with the whole query as its message).
    const cause = (error instanceof Error && error.cause instanceof Error ? error.cause : error) as { message?: string; code?: string };
    logger.warn({ ...request, cause: cause.message, code: cause.code }, "banco de dados indisponível");
    return { status: 503, body: { error: UNAVAILABLE_MESSAGE }, headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } };
  }
  logger.error({ err: error, ...request }, "erro não tratado");
  return { status: 500, body: { error: INTERNAL_ERROR_MESSAGE, requestId: request.reqId }, headers: {} };
}

/** The same answer as a JSON Response (endpoints, through the Astro middleware). */
export function failureResponse(logger: Logger, error: unknown, request: FailedRequest): Response {
  const answer = answerFailure(logger, error, request);
  return jsonResponse(answer.status, answer.body, answer.headers);
}
