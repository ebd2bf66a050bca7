import { DOMAIN_MESSAGE, isAllowedEmail } from "../auth/allowed-email.ts";
import { normalizeEmail } from "../auth/user.ts";
import { EMAIL_PATTERN, FIELD_MAX_LENGTH } from "../../auth/rules.ts";
import { ENTERPRISE_USER_SCHEMA, isPlainObject, readBoolean, scimError, USER_SCHEMA, type ScimAnswer } from "./protocol.ts";

/** The account columns a User resource is read from and written to. */
export interface AccountRow {
  id: string;
  email: string;
  fullName: string;
  createdAt: number;
  provisionedAt: number | null;
  externalId: string | null;
  deactivatedAt: number | null;
  directoryResource: string | null;
}

export interface GroupRef {
  id: string;
  displayName: string;
}

/** What a User resource sets on the account; `resource` is kept to echo the directory's attributes back. */
export interface UserInput {
  email: string;
  fullName: string;
  externalId: string | null;
  active: boolean;
  resource: Record<string, unknown>;
}

/** Attributes the portal owns or never keeps: the rest of a resource is stored as the directory sent it. */
const OWNED = new Set(["schemas", "id", "meta", "username", "active", "externalid", "groups", "password"]);
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

const iso = (ms: number) => new Date(ms).toISOString();

/** The account as a SCIM User (RFC 7643 §4.1), with the attributes the directory sent kept as sent. */
export function toUserResource(row: AccountRow, groups: GroupRef[], baseUrl: string): Record<string, unknown> {
  const stored = row.directoryResource ? (JSON.parse(row.directoryResource) as Record<string, unknown>) : {};
  const location = `${baseUrl}/Users/${row.id}`;
  return {
    schemas: ENTERPRISE_USER_SCHEMA in stored ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    ...stored,
    id: row.id,
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.email,
    name: isPlainObject(stored.name) ? stored.name : { formatted: row.fullName },
    displayName: typeof stored.displayName === "string" ? stored.displayName : row.fullName,
    emails: Array.isArray(stored.emails) ? stored.emails : [{ value: row.email, type: "work", primary: true }],
    active: row.deactivatedAt === null,
    groups: groups.map((group) => ({ value: group.id, display: group.displayName, $ref: `${baseUrl}/Groups/${group.id}` })),
    meta: {
      resourceType: "User",
      created: iso(row.createdAt),
      lastModified: iso(Math.max(row.createdAt, row.provisionedAt ?? 0, row.deactivatedAt ?? 0)),
      location,
    },
  };
}

/** The name the portal shows: `displayName`, else `name.formatted`, else given and family names. */
function fullNameOf(resource: Record<string, unknown>): string {
  const name = isPlainObject(resource.name) ? resource.name : {};
  const text = (value: unknown) => (typeof value === "string" ? value.replace(INVISIBLE, "").trim() : "");
  const joined = [text(name.givenName), text(name.familyName)].filter(Boolean).join(" ");
  return (text(resource.displayName) || text(name.formatted) || joined).slice(0, FIELD_MAX_LENGTH.name);
}

/**
 * Reads a User resource (a creation, a replacement or the result of a PATCH): `userName` is the
 * person's corporate e-mail and must pass the allowed-domain rule, as every other way in does.
 */
export function readUserInput(body: unknown): { ok: true; input: UserInput } | { ok: false; answer: ScimAnswer } {
  if (!isPlainObject(body))
    return { ok: false, answer: scimError(400, "Corpo inválido: esperado um recurso User em JSON.", "invalidSyntax") };
  const userName = typeof body.userName === "string" ? normalizeEmail(body.userName) : "";
  if (!userName) return { ok: false, answer: scimError(400, "O atributo `userName` é obrigatório.", "invalidValue") };
  if (userName.length > FIELD_MAX_LENGTH.email || !EMAIL_PATTERN.test(userName)) {
    return { ok: false, answer: scimError(400, "O `userName` deve ser o e-mail corporativo da pessoa.", "invalidValue") };
  }
  if (!isAllowedEmail(userName)) return { ok: false, answer: scimError(400, DOMAIN_MESSAGE, "invalidValue") };
  const active = body.active === undefined || body.active === null ? true : readBoolean(body.active);
  if (active === undefined)
    return { ok: false, answer: scimError(400, "O atributo `active` deve ser verdadeiro ou falso.", "invalidValue") };
  const externalId = body.externalId;
  if (externalId !== undefined && externalId !== null && typeof externalId !== "string") {
    return { ok: false, answer: scimError(400, "O atributo `externalId` deve ser um texto.", "invalidValue") };
  }
  const resource = Object.fromEntries(Object.entries(body).filter(([key]) => !OWNED.has(key.toLowerCase())));
  return {
    ok: true,
    input: { email: userName, fullName: fullNameOf(body), externalId: externalId?.trim() || null, active, resource },
  };
}
