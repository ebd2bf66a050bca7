/**
 * Partial answers (RFC 7644 §3.4.2.5, §3.9): `attributes` asks for only the named attributes,
 * `excludedAttributes` for all but them, on every read and list and on the resource a POST, PUT or
 * PATCH answers with. `id` and `schemas` are always returned. Names are case-insensitive and may be
 * a sub-attribute (`name.givenName`, `emails.value`) or carry their schema's URN
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`, or the extension's URN
 * alone for all of it). A name the schema does not have selects nothing (no error: a client asking
 * for an attribute this service does not keep gets the rest of the answer).
 */
import { isPlainObject, scimError, type ScimAnswer } from "./protocol.ts";
import { EXTERNAL_ID, find, type AttributeDef, type ResourceDef } from "./schema.ts";

/** Attributes whose `returned` characteristic is "always" (RFC 7643 §3.1, §7): never left out. */
const ALWAYS_RETURNED = new Set(["id", "schemas"]);

/** A path of lower-cased names: `["name", "givenname"]`, `["urn:…:enterprise:2.0:user", "manager", "value"]`. */
type Path = string[];

export type Projection = { kind: "all" } | { kind: "include" | "exclude"; paths: Path[] };

const ALL: Projection = { kind: "all" };

/** The common attributes every resource has (RFC 7643 §3.1), `meta` with its sub-attributes. */
const META: AttributeDef = {
  name: "meta",
  type: "complex",
  subAttributes: ["resourceType", "created", "lastModified", "location", "version"].map((name) => ({ name, type: "string" })),
};
const COMMON: AttributeDef[] = [EXTERNAL_ID, META, { name: "id", type: "string" }, { name: "schemas", type: "string" }];

/** `[attribute]` or `[attribute, sub-attribute]` when `dotted` names one of `attributes`, else null. */
function attributePath(attributes: AttributeDef[], dotted: string): Path | null {
  const [name = "", sub, ...more] = dotted.split(".");
  const attribute = find(attributes, name);
  if (!attribute || more.length > 0) return null;
  if (sub === undefined) return [attribute.name.toLowerCase()];
  const inner = find(attribute.subAttributes, sub);
  return inner ? [attribute.name.toLowerCase(), inner.name.toLowerCase()] : null;
}

/**
 * The path one comma-separated name selects, or null when it names nothing this resource has: only
 * published names count, so however long the list, the projection holds a few dozen paths at most.
 */
function pathOf(resource: ResourceDef, name: string): Path | null {
  const lower = name.trim().toLowerCase();
  if (lower.startsWith("urn:")) {
    const core = resource.core.id.toLowerCase();
    if (lower.startsWith(`${core}:`)) return attributePath([...resource.core.attributes, ...COMMON], lower.slice(core.length + 1));
    for (const extension of resource.extensions) {
      const id = extension.id.toLowerCase();
      if (lower === id) return [id];
      if (lower.startsWith(`${id}:`)) {
        const inner = attributePath(extension.attributes, lower.slice(id.length + 1));
        return inner ? [id, ...inner] : null;
      }
    }
    return null;
  }
  return attributePath([...resource.core.attributes, ...COMMON], lower);
}

/**
 * The projection a query asks for; a 400 `invalidSyntax` when it names both parameters (RFC 7644
 * §3.9 calls them mutually exclusive: which one wins would be a guess). Checked before any write.
 */
export function readProjection(
  resource: ResourceDef,
  query: URLSearchParams,
): { ok: true; projection: Projection } | { ok: false; answer: ScimAnswer } {
  const included = query.get("attributes")?.trim() ?? "";
  const excluded = query.get("excludedAttributes")?.trim() ?? "";
  if (included && excluded) {
    return {
      ok: false,
      answer: scimError(400, "Use `attributes` ou `excludedAttributes`, não os dois na mesma requisição.", "invalidSyntax"),
    };
  }
  if (!included && !excluded) return { ok: true, projection: ALL };
  const unique = new Map<string, Path>();
  for (const name of (included || excluded).split(",")) {
    const path = pathOf(resource, name);
    if (path) unique.set(path.join("\n"), path);
  }
  const paths = [...unique.values()];
  return { ok: true, projection: { kind: included ? "include" : "exclude", paths } };
}

/** Whether the answer shows any of a top-level attribute (a group's `members` is not read when it does not). */
export function shows(projection: Projection, attribute: string): boolean {
  const lower = attribute.toLowerCase();
  if (projection.kind === "all") return true;
  if (projection.kind === "include") return projection.paths.some((path) => path[0] === lower);
  return !projection.paths.some((path) => path.length === 1 && path[0] === lower);
}

/** What is left of the attribute `key` (lower-cased) holding `value`; undefined when nothing is. */
function cutEntry(key: string, value: unknown, paths: Path[], kind: "include" | "exclude"): unknown {
  const whole = paths.some((path) => path.length === 1 && path[0] === key);
  const deeper = paths.filter((path) => path[0] === key && path.length > 1).map((path) => path.slice(1));
  if (kind === "include") return whole ? value : deeper.length > 0 ? cut(value, deeper, kind) : undefined;
  return whole ? undefined : deeper.length > 0 ? cut(value, deeper, kind) : value;
}

/** `value` cut to what `paths` (relative to it) select or leave; undefined when nothing of it is left. */
function cut(value: unknown, paths: Path[], kind: "include" | "exclude"): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => cut(item, paths, kind)).filter((item) => item !== undefined);
    return items.length > 0 || kind === "exclude" ? items : undefined;
  }
  // A sub-attribute asked of a simple value selects nothing of it.
  if (!isPlainObject(value)) return kind === "include" ? undefined : value;
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value)) {
    const kept = cutEntry(key.toLowerCase(), inner, paths, kind);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 || kind === "exclude" ? out : undefined;
}

/** One resource as the projection asks: `id` and `schemas` always stay. */
export function projectResource(resource: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  if (projection.kind === "all") return resource;
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    const kept = ALWAYS_RETURNED.has(lower) ? value : cutEntry(lower, value, projection.paths, projection.kind);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** A resource or a ListResponse answer with every resource projected; errors and empty answers pass unchanged. */
export function projectAnswer(answer: ScimAnswer, projection: Projection): ScimAnswer {
  if (projection.kind === "all" || answer.status >= 300 || !isPlainObject(answer.body)) return answer;
  const body = answer.body;
  if (Array.isArray(body.Resources)) {
    return {
      ...answer,
      body: { ...body, Resources: body.Resources.map((item) => (isPlainObject(item) ? projectResource(item, projection) : item)) },
    };
  }
  return { ...answer, body: projectResource(body, projection) };
}
