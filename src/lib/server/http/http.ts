/**
 * HTTP helpers for endpoints: JSON answers and bounded body reading (this file), the same-origin
 * check (origin.ts), the endpoints' own access check (guards.ts) and how an unexpected error or an
 * absent database is answered (failure.ts).
 */
import "../platform/zod-locale.ts";
import type { z } from "zod";

/** A JSON response that is never cached. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** Largest request body any endpoint reads; the gate cuts the stream here too. */
export const MAX_BODY_BYTES = 64 * 1024;

export const TOO_LARGE_MESSAGE = "Requisição muito grande";

/**
 * Reads the body as text, counting bytes as they stream in; null once it passes `limit` (or the
 * stream fails, e.g. the gate cut it there), so nothing ever holds more than `limit` bytes.
 */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Why a body or query with a NUL character is refused (PostgreSQL refuses NUL in text; nothing of ours means it). */
export const NUL_BODY_MESSAGE = "Requisição inválida: caractere não permitido.";
export const NUL_QUERY_MESSAGE = "Endereço inválido: caractere não permitido.";

/**
 * Whether a parsed JSON value has a NUL character in any string or key. JSON text can only carry
 * one as the escape `\u0000`, so text without that escape is not walked.
 */
export function hasNulCharacter(text: string, value: unknown): boolean {
  if (!text.includes("\\u0000")) return false;
  const walk = (item: unknown): boolean => {
    if (typeof item === "string") return item.includes("\u0000");
    if (Array.isArray(item)) return item.some(walk);
    if (item && typeof item === "object") return Object.entries(item).some(([key, inner]) => key.includes("\u0000") || walk(inner));
    return false;
  };
  return walk(value);
}

/** Keys that reach `Object.prototype` when a parsed body is merged or assigned by key: no field of ours is named so. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Deepest nesting of arrays and objects any body of ours needs (a SCIM PATCH value is 4 levels deep). */
export const MAX_JSON_DEPTH = 32;
export const FORBIDDEN_KEY_MESSAGE = "Requisição inválida: chave não permitida (__proto__, constructor ou prototype).";
export const TOO_DEEP_MESSAGE = `Requisição inválida: estrutura aninhada demais (máximo de ${MAX_JSON_DEPTH} níveis).`;

/**
 * Why a parsed JSON body is refused before anything reads it, or null: a key that could pollute
 * prototypes (at any depth, however it was escaped in the text) or nesting deeper than
 * MAX_JSON_DEPTH. Walked with an explicit stack, so no depth overflows the call stack.
 */
export function unsafeJsonShape(value: unknown): "key" | "depth" | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= MAX_JSON_DEPTH) return "depth";
    if (Array.isArray(item)) {
      for (const inner of item) stack.push([inner, depth + 1]);
      continue;
    }
    for (const [key, inner] of Object.entries(item)) {
      if (FORBIDDEN_KEYS.has(key)) return "key";
      stack.push([inner, depth + 1]);
    }
  }
  return null;
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; response: Response };
/** A refusal as status and JSON body, for a caller that answers without a `Response` (the gate). */
export type ParsedText<T> = { ok: true; data: T } | { ok: false; status: number; body: { error: string; fields?: Record<string, string> } };

/**
 * Validates a JSON body already read (null: it was too large). Bad input becomes a 400 with the
 * first Portuguese message and the per-field messages; a prototype key, deep nesting or a NUL
 * character left in any string is refused too.
 */
export function parseJsonText<S extends z.ZodType>(text: string | null, schema: S): ParsedText<z.infer<S>> {
  if (text === null) return { ok: false, status: 413, body: { error: TOO_LARGE_MESSAGE } };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, body: { error: "Requisição inválida: JSON malformado" } };
  }
  const unsafe = unsafeJsonShape(raw);
  if (unsafe) return { ok: false, status: 400, body: { error: unsafe === "key" ? FORBIDDEN_KEY_MESSAGE : TOO_DEEP_MESSAGE } };
  const result = schema.safeParse(raw);
  if (!result.success) {
    const fields: Record<string, string> = Object.create(null);
    for (const issue of result.error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
    const first = result.error.issues[0]?.message ?? "Dados inválidos";
    return { ok: false, status: 400, body: { error: first, fields } };
  }
  // After the schema, so a field's own message ("… caracteres de controle …") comes first where it has one.
  if (hasNulCharacter(text, result.data)) return { ok: false, status: 400, body: { error: NUL_BODY_MESSAGE } };
  return { ok: true, data: result.data };
}

/** Reads and validates a JSON body (parseJsonText), answering a refusal as a `Response`. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<Parsed<z.infer<S>>> {
  const parsed = parseJsonText(await readBodyText(request), schema);
  return parsed.ok ? parsed : { ok: false, response: jsonResponse(parsed.status, parsed.body) };
}

/** Audit metadata of the request: the gate's resolved client IP and the user agent. */
export function requestMeta(locals: App.Locals, request: Request) {
  return { ipAddress: locals.clientIp, userAgent: request.headers.get("user-agent") };
}
