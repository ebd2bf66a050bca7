import { jsonResponse } from "../http/http.ts";

/** A refused auth step: a Portuguese message, its HTTP status, and a code the /auth islands branch on. */
export interface AuthFailure {
  ok: false;
  status: number;
  error: string;
  code?: string;
  fields?: Record<string, string>;
}

/** An auth flow's outcome, returned by the domain modules and mapped to HTTP by the endpoints. */
export type AuthResult<T = undefined> = { ok: true; value: T } | AuthFailure;

export function authFailure(status: number, code: string | undefined, error: string, fields?: Record<string, string>): AuthFailure {
  return { ok: false, status, error, ...(code ? { code } : {}), ...(fields ? { fields } : {}) };
}

export function failureResponse(failure: AuthFailure): Response {
  const { ok: _ok, status, ...body } = failure;
  return jsonResponse(status, body);
}
