/**
 * The provisioning domain: the company directory (Entra ID, Okta…) creates, changes, deactivates
 * and removes accounts over SCIM 2.0 (RFC 7643/7644). This file holds the protocol's shapes: schema
 * URNs, answers, error bodies, list pages; users.ts and groups.ts the resources; the gate's edge
 * (src/server/scim.ts) only checks the token, reads the body and writes the answer.
 */
import type { RequestMeta } from "../audit/audit.ts";
import type { ScimSettings } from "../config/scim.ts";
import type { Db } from "../data/db.ts";

/** What every provisioning call needs: the database, the settings, where resources live, who asked. */
export interface ScimContext {
  db: Db;
  settings: ScimSettings;
  /** `<PUBLIC_URL>/scim/v2`: resource locations are built on it. */
  baseUrl: string;
  meta: RequestMeta;
}

export const SCIM_CONTENT_TYPE = "application/scim+json";
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/**
 * Largest SCIM request body (1 MiB): a group change of about 15,000 members in one PATCH
 * (`{"value":"<uuid>"}` is ~50 bytes); the portal's own API keeps its 64 KiB. Documented in docs/provisionamento.md.
 */
export const SCIM_MAX_BODY_BYTES = 1024 * 1024;

/** Largest page a list returns, whatever `count` asks (announced in ServiceProviderConfig). */
export const MAX_PAGE_SIZE = 200;

/** What the edge writes back: a status, a JSON body (none for 204) and, for a creation, its Location. */
export interface ScimAnswer {
  status: number;
  body?: unknown;
  location?: string;
  /** The resource's version, sent as the `ETag` header. */
  etag?: string;
}

export type ScimErrorType = "uniqueness" | "invalidFilter" | "invalidValue" | "invalidSyntax" | "invalidPath" | "noTarget" | "mutability";

/** An RFC 7644 §3.12 error: `status` is a string there, `detail` is for the directory's administrator (pt-BR). */
export function scimError(status: number, detail: string, scimType?: ScimErrorType): ScimAnswer {
  return { status, body: { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail } };
}

export const notFound = (what: "Usuário" | "Grupo") => scimError(404, `${what} não encontrado.`);

/** A ListResponse page: `startIndex` is 1-based, as the directory sent it. */
export function listAnswer(resources: unknown[], totalResults: number, startIndex: number): ScimAnswer {
  return {
    status: 200,
    body: { schemas: [LIST_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources },
  };
}

/** Largest `startIndex` or `count` a query may name: past it the database's integers end (offset 1e308 was a 500). */
const MAX_PAGE_NUMBER = 2_147_483_647;
const PAGE_NUMBER = /^[+-]?\d{1,10}$/;

/** A 400 `invalidValue` when `startIndex` or `count` is not an integer within ±2,147,483,647; null when both read. */
export function pageQueryProblem(query: URLSearchParams): ScimAnswer | null {
  for (const name of ["startIndex", "count"]) {
    const value = query.get(name);
    if (value === null || value === "") continue;
    if (!PAGE_NUMBER.test(value.trim()) || Math.abs(Number(value)) > MAX_PAGE_NUMBER) {
      return scimError(400, `O parâmetro \`${name}\` deve ser um número inteiro até ${MAX_PAGE_NUMBER}.`, "invalidValue");
    }
  }
  return null;
}

/** `startIndex` and `count` from a query pageQueryProblem accepted: below 1 reads as 1 and a negative count as 0 (RFC 7644 §3.4.2.4). */
export function readPage(query: URLSearchParams): { startIndex: number; count: number } {
  const startIndex = Math.max(1, Math.trunc(Number(query.get("startIndex") ?? 1)) || 1);
  const asked = query.get("count");
  const count = asked === null || asked === "" ? 100 : Math.trunc(Number(asked));
  return { startIndex, count: Number.isFinite(count) ? Math.min(Math.max(0, count), MAX_PAGE_SIZE) : 100 };
}

/** `active` as Entra may send it: a boolean, or the strings "True"/"False" in any case. Undefined for anything else. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const lowered = value.trim().toLowerCase();
    if (lowered === "true") return true;
    if (lowered === "false") return false;
  }
  return undefined;
}

/**
 * A resource's `meta.version` (RFC 7644 §3.14): a weak ETag built on the change counter the
 * database's triggers keep, and the time of that change (so that a database restored from a
 * backup cannot give an old number to a different state).
 */
export const versionTag = (counter: number, changedAt: number) => `W/"${counter}-${changedAt.toString(36)}"`;

/** Whether an `If-Match`/`If-None-Match` value names `version` (`*` names any): weak comparison for both, as
 * RFC 7644 §3.14 does with weak ETags in If-Match (RFC 9110 §8.8.3.2). */
export function matchesTag(header: string, version: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(version));
}

/** The answer to a PUT, PATCH or DELETE whose `If-Match` no longer names the resource's version. */
export const preconditionFailed = () =>
  scimError(412, "O recurso mudou desde a versão informada em If-Match: leia-o de novo antes de alterá-lo.");

/**
 * A resource's `schemas`, when sent: a short list of URNs (texts without control characters).
 * Directories always send it; absent is tolerated, anything else is a 400 `invalidSyntax` — as is
 * an attribute sent twice under names that differ only in case.
 */
export function schemasProblem(body: Record<string, unknown>): ScimAnswer | null {
  // `userName` and `UserName` in one resource: names are case-insensitive, so which one counts would be a guess.
  const names = Object.keys(body).map((name) => name.toLowerCase());
  if (new Set(names).size !== names.length) {
    return scimError(400, "Atributo repetido no recurso (nomes de atributo não diferenciam maiúsculas).", "invalidSyntax");
  }
  const { schemas } = body;
  if (schemas === undefined || schemas === null) return null;
  const valid =
    Array.isArray(schemas) &&
    schemas.length <= 10 &&
    schemas.every((urn) => typeof urn === "string" && urn.length <= 256 && isPrintableAscii(urn));
  return valid ? null : scimError(400, "O atributo `schemas` deve ser uma lista de URNs de esquema.", "invalidSyntax");
}

/** Printable ASCII only, nothing else (no space): URNs, and addresses before they are lower-cased. */
export const isPrintableAscii = (value: string) => /^[\x21-\x7e]+$/.test(value);

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
