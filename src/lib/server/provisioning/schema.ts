/**
 * The attributes the portal keeps for the directory, one table for everything that reads them:
 * `/Schemas` publishes it (discovery.ts), a PATCH path must name one of its attributes (patch.ts),
 * and a created or replaced resource keeps only what it lists (readResource). Attribute names are
 * case-insensitive (RFC 7643 §2.1) and come out in the spelling written here. Everything kept is
 * held in null-prototype objects: no key the directory sends can reach `Object.prototype`.
 */
import { INVISIBLE_CHARACTER } from "../../auth/rules.ts";
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, isPlainObject, USER_SCHEMA } from "./protocol.ts";

export type AttributeType = "string" | "boolean" | "reference" | "complex";

export interface AttributeDef {
  name: string;
  type: AttributeType;
  multiValued?: boolean;
  required?: boolean;
  mutability?: "readWrite" | "readOnly";
  uniqueness?: "none" | "server";
  /** Longest text kept (characters); the default is TEXT_MAX_LENGTH. */
  maxLength?: number;
  subAttributes?: AttributeDef[];
  description?: string;
}

export interface SchemaDef {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDef[];
}

/** A resource type: its core schema and extensions (each kept under its URN, RFC 7643 §3.3). */
export interface ResourceDef {
  name: "User" | "Group";
  core: SchemaDef;
  extensions: SchemaDef[];
}

/** Longest text kept in an attribute the portal only stores and returns. */
export const TEXT_MAX_LENGTH = 256;
/** Most values a multi-valued attribute keeps (members excepted: a group may be large). */
const MAX_VALUES = 20;
export const MAX_MEMBERS = 20_000;

/** How many values a multi-valued attribute keeps (and a request may send). */
export const valueLimit = (attribute: AttributeDef) => (attribute.name === "members" ? MAX_MEMBERS : MAX_VALUES);

const text = (name: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({ name, type: "string", ...extra });

const USER_CORE: SchemaDef = {
  id: USER_SCHEMA,
  name: "User",
  description: "Conta no portal; userName é o e-mail corporativo",
  attributes: [
    text("userName", { required: true, uniqueness: "server", maxLength: 254 }),
    {
      name: "name",
      type: "complex",
      subAttributes: ["formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"].map((name) => text(name)),
    },
    text("displayName"),
    text("nickName"),
    text("title"),
    text("userType"),
    text("preferredLanguage"),
    text("locale"),
    text("timezone"),
    { name: "active", type: "boolean" },
    {
      name: "emails",
      type: "complex",
      multiValued: true,
      description: "Só endereços dos domínios autorizados são guardados",
      subAttributes: [text("value", { maxLength: 254 }), text("display"), text("type"), { name: "primary", type: "boolean" }],
    },
    {
      name: "groups",
      type: "complex",
      multiValued: true,
      mutability: "readOnly",
      subAttributes: [text("value"), { name: "$ref", type: "reference" }, text("display"), text("type")],
    },
  ],
};

const ENTERPRISE_USER: SchemaDef = {
  id: ENTERPRISE_USER_SCHEMA,
  name: "EnterpriseUser",
  description: "Dados corporativos da pessoa, guardados como o diretório os envia",
  attributes: [
    text("employeeNumber"),
    text("costCenter"),
    text("organization"),
    text("division"),
    text("department"),
    {
      name: "manager",
      type: "complex",
      subAttributes: [text("value"), { name: "$ref", type: "reference" }, text("displayName")],
    },
  ],
};

const GROUP_CORE: SchemaDef = {
  id: GROUP_SCHEMA,
  name: "Group",
  description: "Grupo do diretório; o nome dá perfis pelo OIDC_ROLE_MAP",
  attributes: [
    text("displayName", { required: true, uniqueness: "server" }),
    {
      name: "members",
      type: "complex",
      multiValued: true,
      subAttributes: [text("value"), { name: "$ref", type: "reference" }, text("display"), text("type")],
    },
  ],
};

export const USER_RESOURCE: ResourceDef = { name: "User", core: USER_CORE, extensions: [ENTERPRISE_USER] };
export const GROUP_RESOURCE: ResourceDef = { name: "Group", core: GROUP_CORE, extensions: [] };
export const PUBLISHED_SCHEMAS: SchemaDef[] = [USER_CORE, ENTERPRISE_USER, GROUP_CORE];

/** Attributes of every resource (RFC 7643 §3.1): `externalId` is the directory's; `id` and `meta` are the portal's. */
export const EXTERNAL_ID: AttributeDef = text("externalId");
const READ_ONLY_COMMON = new Set(["id", "meta", "schemas"]);

export const find = (list: AttributeDef[] | undefined, name: string) => list?.find((a) => a.name.toLowerCase() === name.toLowerCase());

/** What a name at the top of a resource is: one of its attributes, an extension's container, read-only, or unknown. */
export type TopLevel =
  | { kind: "attribute"; schema: SchemaDef | null; attribute: AttributeDef }
  | { kind: "extension"; schema: SchemaDef }
  | { kind: "readOnly"; name: string }
  | { kind: "unknown" };

export function resolveTopLevel(resource: ResourceDef, name: string): TopLevel {
  const lower = name.toLowerCase();
  const extension = resource.extensions.find((schema) => schema.id.toLowerCase() === lower);
  if (extension) return { kind: "extension", schema: extension };
  if (lower === "externalid") return { kind: "attribute", schema: null, attribute: EXTERNAL_ID };
  if (READ_ONLY_COMMON.has(lower)) return { kind: "readOnly", name: lower };
  const attribute = find(resource.core.attributes, name);
  if (!attribute) return { kind: "unknown" };
  return attribute.mutability === "readOnly" ? { kind: "readOnly", name: attribute.name } : { kind: "attribute", schema: null, attribute };
}

/** A refused value; `unknown` when it names a sub-attribute the schema does not have (a PATCH answers `invalidPath`). */
export type ValueCheck = { ok: true; value: unknown } | { ok: false; detail: string; unknown?: true };

/**
 * A value for `attribute`, checked and copied into null-prototype objects: strings within length
 * and without control or bidi characters, booleans (Entra's "True"/"False" too), complex values
 * with known sub-attributes only. `strict` refuses unknown sub-attributes (a PATCH names what it
 * changes); otherwise they are dropped (a whole resource carries what a directory happens to send).
 * `null` is "unassigned" (RFC 7644 §3.5.2) and comes back as undefined.
 */
export function checkValue(attribute: AttributeDef, value: unknown, strict: boolean, label = attribute.name): ValueCheck {
  if (value === null || value === undefined) return { ok: true, value: undefined };
  if (attribute.multiValued) {
    const items = Array.isArray(value) ? value : [value];
    const limit = valueLimit(attribute);
    if (items.length > limit) return { ok: false, detail: `O atributo \`${label}\` aceita no máximo ${limit} valores.` };
    const out: unknown[] = [];
    for (const item of items) {
      const checked = checkSingle(attribute, item, strict, label);
      if (!checked.ok) return checked;
      if (checked.value !== undefined) out.push(checked.value);
    }
    return { ok: true, value: out };
  }
  return checkSingle(attribute, value, strict, label);
}

function checkSingle(attribute: AttributeDef, value: unknown, strict: boolean, label: string): ValueCheck {
  if (value === null || value === undefined) return { ok: true, value: undefined };
  switch (attribute.type) {
    case "boolean": {
      if (typeof value === "boolean") return { ok: true, value };
      const lowered = typeof value === "string" ? value.trim().toLowerCase() : "";
      if (lowered === "true" || lowered === "false") return { ok: true, value: lowered === "true" };
      return { ok: false, detail: `O atributo \`${label}\` deve ser verdadeiro ou falso.` };
    }
    case "string":
    case "reference": {
      if (typeof value !== "string") return { ok: false, detail: `O atributo \`${label}\` deve ser um texto.` };
      const limit = attribute.maxLength ?? TEXT_MAX_LENGTH;
      if (value.length > limit) return { ok: false, detail: `O atributo \`${label}\` passa de ${limit} caracteres.` };
      if (INVISIBLE_CHARACTER.test(value)) {
        return { ok: false, detail: `O atributo \`${label}\` não pode conter caracteres de controle ou invisíveis.` };
      }
      return { ok: true, value };
    }
    case "complex": {
      if (!isPlainObject(value)) return { ok: false, detail: `O atributo \`${label}\` deve ser um objeto.` };
      const out: Record<string, unknown> = Object.create(null);
      for (const [key, inner] of Object.entries(value)) {
        const sub = find(attribute.subAttributes, key);
        if (!sub) {
          if (strict) return { ok: false, detail: `O atributo \`${label}.${key}\` não existe no esquema publicado.`, unknown: true };
          continue;
        }
        const checked = checkSingle(sub, inner, strict, `${label}.${sub.name}`);
        if (!checked.ok) return checked;
        if (checked.value !== undefined) out[sub.name] = checked.value;
      }
      return { ok: true, value: out };
    }
  }
}

/**
 * The attributes of a whole resource (a POST, a PUT, a PATCH's result, or what was stored) that
 * the schema lists, with their checked values, in a null-prototype object; anything else is
 * dropped, never echoed. Read-only and common attributes (`id`, `meta`, `schemas`, `groups`,
 * `externalId`) are left to the caller. `lenient` (what an older version stored) drops a bad value instead of refusing.
 */
export function readResource(
  resource: ResourceDef,
  body: Record<string, unknown>,
): { ok: true; kept: Record<string, unknown> } | { ok: false; detail: string };
export function readResource(
  resource: ResourceDef,
  body: Record<string, unknown>,
  lenient: true,
): { ok: true; kept: Record<string, unknown> };
export function readResource(
  resource: ResourceDef,
  body: Record<string, unknown>,
  lenient = false,
): { ok: true; kept: Record<string, unknown> } | { ok: false; detail: string } {
  const kept: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body)) {
    const top = resolveTopLevel(resource, key);
    if (top.kind === "extension") {
      if (value === null || value === undefined) continue;
      if (!isPlainObject(value)) {
        if (lenient) continue;
        return { ok: false, detail: `A extensão \`${top.schema.id}\` deve ser um objeto.` };
      }
      const extension: Record<string, unknown> = Object.create(null);
      for (const [name, inner] of Object.entries(value)) {
        const attribute = find(top.schema.attributes, name);
        if (!attribute) continue;
        const checked = checkValue(attribute, inner, false);
        if (!checked.ok && lenient) continue;
        if (!checked.ok) return checked;
        if (checked.value !== undefined) extension[attribute.name] = checked.value;
      }
      if (Object.keys(extension).length > 0) kept[top.schema.id] = extension;
      continue;
    }
    if (top.kind !== "attribute" || top.attribute === EXTERNAL_ID) continue;
    const checked = checkValue(top.attribute, value, false);
    if (!checked.ok && lenient) continue;
    if (!checked.ok) return checked;
    if (checked.value !== undefined) kept[top.attribute.name] = checked.value;
  }
  return { ok: true, kept };
}

/** The value of `name` in `body`, whatever the case it was sent in (RFC 7643 §2.1: attribute names are case-insensitive). */
export function attributeOf(body: Record<string, unknown>, name: string): unknown {
  const lower = name.toLowerCase();
  const key = Object.keys(body).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : body[key];
}

/** A deep copy of parsed JSON in null-prototype objects (arrays stay arrays). */
export function nullPrototypeCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(nullPrototypeCopy) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value)) out[key] = nullPrototypeCopy(inner);
  return out as T;
}
