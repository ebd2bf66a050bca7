import { DOMAIN_MESSAGE, isAllowedEmail } from "../auth/allowed-email.ts";
import { normalizeEmail } from "../auth/user.ts";
import { EMAIL_PATTERN, FIELD_MAX_LENGTH } from "../../auth/rules.ts";
import {
  ENTERPRISE_USER_SCHEMA,
  versionTag,
  isPlainObject,
  isPrintableAscii,
  readBoolean,
  schemasProblem,
  scimError,
  USER_SCHEMA,
  type ScimAnswer,
} from "./protocol.ts";
import { attributeOf, checkValue, EXTERNAL_ID, readResource, USER_RESOURCE } from "./schema.ts";

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
  /** When what the resource shows last changed (null: never since creation) and how many times: kept by triggers. */
  resourceModifiedAt: number | null;
  resourceVersion: number;
}

export interface GroupRef {
  id: string;
  displayName: string;
}

/** What a User resource sets on the account; `resource` holds the other attributes the schema keeps, to return them. */
export interface UserInput {
  email: string;
  fullName: string;
  externalId: string | null;
  /** null when the resource does not say (a create is then active; a change leaves it as it was). */
  active: boolean | null;
  resource: Record<string, unknown>;
}

/** Attributes kept in the account's own columns rather than in the stored resource. */
const IN_COLUMNS = ["userName", "active"];
const USER_NAME_MESSAGE = "O `userName` deve ser o e-mail corporativo da pessoa.";

const iso = (ms: number) => new Date(ms).toISOString();

/** When the account's resource last changed and its version tag; the database's clock may trail this process's, so never before the creation. */
export function userVersion(row: Pick<AccountRow, "createdAt" | "resourceModifiedAt" | "resourceVersion">) {
  const changedAt = Math.max(row.createdAt, row.resourceModifiedAt ?? row.createdAt);
  return { changedAt, tag: versionTag(row.resourceVersion, changedAt) };
}

/** The account as a SCIM User (RFC 7643 §4.1), with the attributes the directory sent kept as sent. */
export function toUserResource(row: AccountRow, groups: GroupRef[], baseUrl: string): Record<string, unknown> {
  // Read through the schema: only what it keeps comes back, whatever an older version stored.
  const stored = row.directoryResource
    ? readResource(USER_RESOURCE, JSON.parse(row.directoryResource) as Record<string, unknown>, true).kept
    : {};
  const location = `${baseUrl}/Users/${row.id}`;
  const { changedAt, tag } = userVersion(row);
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
      lastModified: iso(changedAt),
      location,
      version: tag,
    },
  };
}

function isCorporateAddress(value: unknown): boolean {
  if (typeof value !== "string" || !isPrintableAscii(value.trim())) return false;
  const address = normalizeEmail(value);
  return EMAIL_PATTERN.test(address) && isAllowedEmail(address);
}

/**
 * The name the portal shows: `displayName`, else `name.formatted`, else given and family names, in
 * NFC and cut at a whole character; with none of them, the address's local part (an empty name
 * showed as a blank row in the panel).
 */
function fullNameOf(resource: Record<string, unknown>, email: string): string {
  const name = isPlainObject(resource.name) ? resource.name : {};
  const text = (value: unknown) => (typeof value === "string" ? value.normalize("NFC").trim() : "");
  const joined = [text(name.givenName), text(name.familyName)].filter(Boolean).join(" ");
  const chosen = text(resource.displayName) || text(name.formatted) || joined || email.slice(0, email.indexOf("@"));
  return Array.from(chosen).slice(0, FIELD_MAX_LENGTH.name).join("");
}

/**
 * Reads a User resource (a creation, a replacement or the result of a PATCH): `userName` is the
 * person's corporate e-mail and must pass the allowed-domain rule, as every other way in does.
 */
export function readUserInput(body: unknown): { ok: true; input: UserInput } | { ok: false; answer: ScimAnswer } {
  if (!isPlainObject(body))
    return { ok: false, answer: scimError(400, "Corpo inválido: esperado um recurso User em JSON.", "invalidSyntax") };
  const schemas = schemasProblem(body);
  if (schemas) return { ok: false, answer: schemas };
  // `Active: false` must deactivate as `active: false` does: names are read without regard to case.
  const sentName = attributeOf(body, "userName");
  const sentActive = attributeOf(body, "active");
  const externalId = attributeOf(body, "externalId");
  const sent = typeof sentName === "string" ? sentName.trim() : "";
  if (!sent) return { ok: false, answer: scimError(400, "O atributo `userName` é obrigatório.", "invalidValue") };
  // Anything outside printable ASCII is refused before lower-casing (the Kelvin sign `K` lower-cases to `k`).
  if (!isPrintableAscii(sent)) return { ok: false, answer: scimError(400, USER_NAME_MESSAGE, "invalidValue") };
  const userName = normalizeEmail(sent);
  if (userName.length > FIELD_MAX_LENGTH.email || !EMAIL_PATTERN.test(userName)) {
    return { ok: false, answer: scimError(400, USER_NAME_MESSAGE, "invalidValue") };
  }
  if (!isAllowedEmail(userName)) return { ok: false, answer: scimError(400, DOMAIN_MESSAGE, "invalidValue") };
  // Not sent (a PUT without it, a PATCH removing it) is null: it changes nothing; only `true` reactivates.
  const active = sentActive === undefined || sentActive === null ? null : readBoolean(sentActive);
  if (active === undefined)
    return { ok: false, answer: scimError(400, "O atributo `active` deve ser verdadeiro ou falso.", "invalidValue") };
  const external = checkValue(EXTERNAL_ID, externalId, false);
  if (!external.ok) return { ok: false, answer: scimError(400, external.detail, "invalidValue") };
  const read = readResource(USER_RESOURCE, body);
  if (!read.ok) return { ok: false, answer: scimError(400, read.detail, "invalidValue") };
  const resource = read.kept;
  for (const name of IN_COLUMNS) delete resource[name];
  // Only corporate addresses are kept: a personal e-mail the directory sends is not the portal's to hold.
  if (Array.isArray(resource.emails)) {
    const corporate = resource.emails.filter((email) => isPlainObject(email) && isCorporateAddress(email.value));
    if (corporate.length > 0) resource.emails = corporate;
    else delete resource.emails;
  }
  return {
    ok: true,
    input: {
      email: userName,
      fullName: fullNameOf(resource, userName),
      externalId: typeof external.value === "string" ? external.value.trim() || null : null,
      active,
      resource,
    },
  };
}
