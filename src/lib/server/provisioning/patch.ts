/**
 * PATCH (RFC 7644 §3.5.2) applied by the published schema (schema.ts), never by walking whatever
 * path the directory sends: every path names an attribute the portal keeps, or the request is a 400
 * `invalidPath` (read-only ones `mutability`) before anything is applied. The operations run on a
 * null-prototype copy of the resource, so no key can reach `Object.prototype`.
 *
 * What directories send and this takes: Entra's capitalised `Replace`/`Add`/`Remove`; Okta's
 * path-less `{ "op": "replace", "value": { "active": false } }` (and its group rename that repeats
 * the unchanged `id`); value paths such as `emails[type eq "work"].value`, added when nothing
 * matches; `members` removals by value list; the enterprise extension by attribute
 * (`urn:…:enterprise:2.0:User:department`) or whole (its URN as the path, or a path-less value keyed
 * by it); Entra's `manager` as a bare id string. An empty `Operations` list changes nothing.
 */
import { filter as compileFilter, parse as parseFilter, type Filter } from "scim2-parse-filter";
import { ENTERPRISE_USER_SCHEMA, isPlainObject, PATCH_SCHEMA, scimError, type ScimAnswer, type ScimErrorType } from "./protocol.ts";
import {
  checkValue,
  find,
  nullPrototypeCopy,
  resolveTopLevel,
  valueLimit,
  type AttributeDef,
  type ResourceDef,
  type SchemaDef,
} from "./schema.ts";

const MAX_OPERATIONS = 1000;
const MAX_PATH_LENGTH = 512;
/** `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub` once a schema URN prefix is taken off. */
const ATTRIBUTE_PATH = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/s;

type Op = "add" | "replace" | "remove";

interface ValueFilter {
  test: (item: unknown) => boolean;
  /** `sub eq "x"`: what an add (or Entra's replace) creates when no value matches. */
  equals?: { attribute: AttributeDef; value: unknown };
}

interface Target {
  /** The extension holding the attribute; null for the core schema and `externalId`. */
  extension: SchemaDef | null;
  attribute: AttributeDef;
  filter?: ValueFilter;
  sub?: AttributeDef;
}

type Step = { op: Op; target: Target; value: unknown } | { op: "remove"; wholeExtension: SchemaDef };

class Refusal extends Error {
  constructor(
    readonly detail: string,
    readonly scimType: ScimErrorType,
  ) {
    super(detail);
  }
}

const invalidPath = (path: string) => new Refusal(`O caminho \`${path.slice(0, 120)}\` não existe no esquema publicado.`, "invalidPath");
const readOnly = (name: string) => new Refusal(`O atributo \`${name}\` é somente leitura.`, "mutability");

/** The attribute names a value filter uses must be sub-attributes of the multi-valued attribute. */
function readFilter(attribute: AttributeDef, text: string, path: string): ValueFilter {
  let parsed: Filter;
  try {
    parsed = parseFilter(text);
  } catch {
    throw new Refusal(`Filtro inválido no caminho \`${path.slice(0, 120)}\`.`, "invalidFilter");
  }
  let equals: ValueFilter["equals"];
  const visit = (node: Filter): void => {
    if ("filters" in node) node.filters.forEach(visit);
    else if ("filter" in node) visit(node.filter);
    else if ("valFilter" in node) throw invalidPath(path);
    else {
      const sub = find(attribute.subAttributes, node.attrPath);
      if (!sub) throw invalidPath(path);
      if (node.op === "eq" && parsed === node) equals = { attribute: sub, value: node.compValue };
    }
  };
  visit(parsed);
  const test = compileFilter(parsed);
  return { test: (item) => isPlainObject(item) && test(item), equals };
}

/** A path (or a path-less value's key) as a target in `resource`'s schema; refused when it names nothing kept. */
function resolvePath(resource: ResourceDef, path: string): Target | { wholeExtension: SchemaDef } {
  if (path.length > MAX_PATH_LENGTH) throw invalidPath(path);
  let rest = path;
  let extension: SchemaDef | null = null;
  if (/^urn:/i.test(path)) {
    const lower = path.toLowerCase();
    const whole = resource.extensions.find((schema) => schema.id.toLowerCase() === lower);
    if (whole) return { wholeExtension: whole };
    const owner = [resource.core, ...resource.extensions].find((schema) => lower.startsWith(`${schema.id.toLowerCase()}:`));
    if (!owner) throw invalidPath(path);
    rest = path.slice(owner.id.length + 1);
    extension = owner === resource.core ? null : owner;
  }
  const match = ATTRIBUTE_PATH.exec(rest);
  if (!match) throw invalidPath(path);
  const [, name, filterText, subName] = match as unknown as [string, string, string | undefined, string | undefined];
  let attribute: AttributeDef | undefined;
  if (extension) {
    attribute = find(extension.attributes, name);
  } else {
    const top = resolveTopLevel(resource, name);
    if (top.kind === "readOnly") throw readOnly(top.name);
    if (top.kind === "attribute") attribute = top.attribute;
  }
  if (!attribute) throw invalidPath(path);
  const sub = subName === undefined ? undefined : find(attribute.subAttributes, subName);
  if (subName !== undefined && !sub) throw invalidPath(path);
  if (filterText !== undefined && !attribute.multiValued) throw invalidPath(path);
  // `emails.value` without a filter would change every e-mail at once: a value filter says which.
  if (attribute.multiValued && sub && filterText === undefined) throw invalidPath(path);
  return { extension, attribute, sub, filter: filterText === undefined ? undefined : readFilter(attribute, filterText, path) };
}

/** One operation as steps: a path-less add or replace becomes one step per attribute its value names. */
function stepsOf(resource: ResourceDef, currentId: unknown, op: Op, path: unknown, value: unknown): Step[] {
  if (path !== undefined && path !== null) {
    if (typeof path !== "string" || path.trim() === "") throw new Refusal("O `path` da operação deve ser um texto.", "invalidPath");
    const target = resolvePath(resource, path.trim());
    if (!("wholeExtension" in target)) return [{ op, target, value }];
    if (op === "remove") return [{ op, wholeExtension: target.wholeExtension }];
    return extensionSteps(target.wholeExtension, op, value);
  }
  if (op === "remove") throw new Refusal("Uma operação `remove` precisa de `path`.", "noTarget");
  if (!isPlainObject(value)) throw new Refusal("Sem `path`, o `value` deve ser um objeto com os atributos.", "invalidValue");
  const steps: Step[] = [];
  for (const [key, inner] of Object.entries(value)) {
    // Okta's group rename repeats the group's id: the same id changes nothing; another is refused.
    if (key.toLowerCase() === "id" && inner === currentId) continue;
    const target = resolvePath(resource, key);
    if ("wholeExtension" in target) steps.push(...extensionSteps(target.wholeExtension, op, inner));
    else steps.push({ op, target, value: inner });
  }
  return steps;
}

function extensionSteps(extension: SchemaDef, op: Op, value: unknown): Step[] {
  if (!isPlainObject(value)) throw new Refusal(`O valor da extensão \`${extension.id}\` deve ser um objeto.`, "invalidValue");
  return Object.entries(value).map(([name, inner]) => {
    const attribute = find(extension.attributes, name);
    if (!attribute) throw invalidPath(`${extension.id}:${name}`);
    return { op, target: { extension, attribute }, value: inner };
  });
}

function checked(attribute: AttributeDef, value: unknown, label: string): unknown {
  const result = checkValue(attribute, value, true, label);
  if (!result.ok) throw new Refusal(result.detail, result.unknown ? "invalidPath" : "invalidValue");
  return result.value;
}

/**
 * Entra sends the enterprise `manager` (a complex attribute, RFC 7643 §4.3) as the manager's bare id:
 * `{ "op": "Add", "path": "urn:…:enterprise:2.0:User:manager", "value": "2819c223-…" }`. A non-empty
 * text there is read as `{ "value": … }`; every other shape goes on to the schema's check (refused).
 */
function bareReference(target: Target, value: unknown): unknown {
  const isManager = target.extension?.id === ENTERPRISE_USER_SCHEMA && target.attribute.name === "manager";
  return isManager && typeof value === "string" && value.trim() !== "" ? { value } : value;
}

/** Two values of a multi-valued attribute are the same when their `value`s are (members, e-mails), else when equal as JSON. */
function identityOf(item: unknown): string {
  return isPlainObject(item) && item.value !== undefined ? `v:${JSON.stringify(item.value)}` : `j:${JSON.stringify(item)}`;
}

/**
 * What one request may cost: every value of a multi-valued attribute an operation looks at counts
 * one. A group of 20,000 members takes ten filtered operations in a request; 1,000 of them would run
 * 20 million filter tests on the event loop, so a directory splits such a change into smaller requests.
 */
const WORK_BUDGET = 200_000;

interface Work {
  left: number;
  /** The identities of the values of each list this request appended to, kept as the list grows. */
  identities: WeakMap<unknown[], Set<string>>;
}

function spend(work: Work, amount: number): void {
  work.left -= amount;
  if (work.left < 0)
    throw new Refusal("PATCH grande demais para uma requisição: divida as operações em requisições menores.", "invalidValue");
}

function merge(into: unknown, from: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  if (isPlainObject(into)) for (const [key, value] of Object.entries(into)) out[key] = value;
  if (isPlainObject(from)) for (const [key, value] of Object.entries(from)) out[key] = value;
  return out;
}

/** Applies one step to `document` (null-prototype objects only). */
function applyStep(document: Record<string, unknown>, step: Step, work: Work): void {
  if ("wholeExtension" in step) {
    delete document[step.wholeExtension.id];
    return;
  }
  const { op, target } = step;
  const { attribute, sub, filter } = target;
  const holder: Record<string, unknown> = target.extension
    ? ((document[target.extension.id] = merge(document[target.extension.id], null)) as Record<string, unknown>)
    : document;
  const name = attribute.name;
  const label = sub ? `${name}.${sub.name}` : name;

  if (!attribute.multiValued) {
    if (op === "remove") {
      if (!sub) delete holder[name];
      else if (isPlainObject(holder[name])) delete (holder[name] as Record<string, unknown>)[sub.name];
      return;
    }
    if (sub) {
      const container = merge(holder[name], null);
      const value = checked(sub, step.value, label);
      if (value === undefined) delete container[sub.name];
      else container[sub.name] = value;
      holder[name] = container;
      return;
    }
    const value = checked(attribute, bareReference(target, step.value), label);
    if (value === undefined) delete holder[name];
    // A complex value replaces the sub-attributes it names and leaves the others (RFC 7644 §3.5.2.3).
    else holder[name] = attribute.type === "complex" ? merge(holder[name], value) : value;
    return;
  }

  if (!filter) {
    const current: unknown[] = Array.isArray(holder[name]) ? (holder[name] as unknown[]) : [];
    if (op === "remove") {
      if (step.value === undefined || step.value === null) delete holder[name];
      else {
        spend(work, current.length);
        const gone = new Set((Array.isArray(step.value) ? step.value : [step.value]).map(identityOf));
        holder[name] = current.filter((item) => !gone.has(identityOf(item)));
      }
      return;
    }
    const values = checked(attribute, step.value, label) as unknown[] | undefined;
    if (op === "replace") {
      holder[name] = values ?? [];
      return;
    }
    // Appended in place with the list's identities kept: each add costs its own values, not the list's length again.
    const list = Array.isArray(holder[name]) ? current : [];
    let seen = work.identities.get(list);
    if (!seen) {
      spend(work, list.length);
      seen = new Set(list.map(identityOf));
      work.identities.set(list, seen);
    }
    for (const value of values ?? []) {
      const identity = identityOf(value);
      if (seen.has(identity)) continue;
      seen.add(identity);
      list.push(value);
    }
    holder[name] = list;
    return;
  }

  spend(work, Array.isArray(holder[name]) ? (holder[name] as unknown[]).length : 0);
  const list: unknown[] = Array.isArray(holder[name]) ? [...(holder[name] as unknown[])] : [];

  if (op === "remove") {
    holder[name] = sub
      ? list.map((item) => {
          if (!filter.test(item)) return item;
          const copy = merge(item, null);
          delete copy[sub.name];
          return copy;
        })
      : list.filter((item) => !filter.test(item));
    return;
  }
  const change = (item: unknown) => {
    if (sub) {
      const copy = merge(item, null);
      const value = checked(sub, step.value, label);
      if (value === undefined) delete copy[sub.name];
      else copy[sub.name] = value;
      return copy;
    }
    const value = checked({ ...attribute, multiValued: false }, step.value, label);
    return merge(item, value);
  };
  if (!list.some((item) => filter.test(item))) {
    // Entra sets `emails[type eq "work"].value` on a person with no work e-mail yet: the value is added.
    if (!filter.equals) throw new Refusal(`Nenhum valor corresponde ao filtro de \`${name}\`.`, "noTarget");
    const created = Object.create(null) as Record<string, unknown>;
    created[filter.equals.attribute.name] = filter.equals.value;
    list.push(change(created));
  } else {
    for (let i = 0; i < list.length; i++) if (filter.test(list[i])) list[i] = change(list[i]);
  }
  holder[name] = list;
}

/** The values a request adds to or sets on each multi-valued attribute, all operations together, within the attribute's limit: checked before any work. */
function tooManyValues(steps: Step[]): void {
  const sums = new Map<AttributeDef, number>();
  for (const step of steps) {
    if ("wholeExtension" in step || step.op === "remove" || !step.target.attribute.multiValued) continue;
    const count = Array.isArray(step.value) ? step.value.length : 1;
    sums.set(step.target.attribute, (sums.get(step.target.attribute) ?? 0) + count);
  }
  for (const [attribute, sum] of sums) {
    const limit = valueLimit(attribute);
    if (sum > limit)
      throw new Refusal(`O atributo \`${attribute.name}\` aceita no máximo ${limit} valores por requisição.`, "invalidValue");
  }
}

/** Drops what the operations left empty: an extension with no attribute, a multi-valued attribute with no value. */
function tidy(document: Record<string, unknown>, resource: ResourceDef): void {
  for (const extension of resource.extensions) {
    const held = document[extension.id];
    if (held !== undefined && (!isPlainObject(held) || Object.keys(held).length === 0)) delete document[extension.id];
  }
  for (const attribute of resource.core.attributes) {
    const held = document[attribute.name];
    if (attribute.multiValued && Array.isArray(held) && held.length === 0) delete document[attribute.name];
  }
}

/**
 * Applies a PatchOp body to a null-prototype copy of `current` (a resource as the portal returns
 * it); the caller reads the result as it reads a PUT. Nothing is applied unless every operation is valid.
 */
export function applyPatch(
  resource: ResourceDef,
  current: Record<string, unknown>,
  body: unknown,
): { ok: true; resource: Record<string, unknown> } | { ok: false; answer: ScimAnswer } {
  if (!isPlainObject(body) || !Array.isArray(body.Operations)) {
    return { ok: false, answer: scimError(400, "Corpo PATCH inválido: esperado um objeto com a lista `Operations`.", "invalidSyntax") };
  }
  if (Array.isArray(body.schemas) && !body.schemas.includes(PATCH_SCHEMA)) {
    return { ok: false, answer: scimError(400, `Corpo PATCH inválido: o esquema deve ser ${PATCH_SCHEMA}.`, "invalidSyntax") };
  }
  if (body.Operations.length > MAX_OPERATIONS) {
    return { ok: false, answer: scimError(400, `Corpo PATCH inválido: no máximo ${MAX_OPERATIONS} operações.`, "invalidValue") };
  }
  try {
    const steps: Step[] = [];
    for (const operation of body.Operations) {
      if (!isPlainObject(operation) || typeof operation.op !== "string" || !/^(add|replace|remove)$/i.test(operation.op)) {
        throw new Refusal("Operação PATCH inválida: `op` deve ser add, replace ou remove.", "invalidSyntax");
      }
      const op = operation.op.toLowerCase() as Op;
      if (op !== "remove" && operation.value === undefined) throw new Refusal(`A operação \`${op}\` precisa de \`value\`.`, "invalidValue");
      steps.push(...stepsOf(resource, current.id, op, operation.path, operation.value));
    }
    tooManyValues(steps);
    const document = nullPrototypeCopy(current);
    const work: Work = { left: WORK_BUDGET, identities: new WeakMap() };
    for (const step of steps) applyStep(document, step, work);
    tidy(document, resource);
    return { ok: true, resource: document };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, answer: scimError(400, `Operação PATCH recusada: ${error.detail}`, error.scimType) };
    throw error;
  }
}
