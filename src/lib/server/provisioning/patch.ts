import { scimPatch, ScimError, type ScimPatchOperation, type ScimResource } from "scim-patch";
import { isPlainObject, PATCH_SCHEMA, scimError, type ScimAnswer } from "./protocol.ts";

/**
 * Applies a PatchOp body to a copy of the resource with scim-patch, which takes Entra's capitalised
 * `Replace`/`Add`/`Remove`, Okta's path-less `{ "op": "replace", "value": { "active": false } }`
 * and value paths such as `emails[type eq "work"].value`. An empty `Operations` list changes nothing.
 */
export function applyPatch<T extends Record<string, unknown>>(
  resource: T,
  body: unknown,
): { ok: true; resource: T } | { ok: false; answer: ScimAnswer } {
  if (!isPlainObject(body) || !Array.isArray(body.Operations)) {
    return { ok: false, answer: scimError(400, "Corpo PATCH inválido: esperado um objeto com a lista `Operations`.", "invalidSyntax") };
  }
  if (Array.isArray(body.schemas) && !body.schemas.includes(PATCH_SCHEMA)) {
    return { ok: false, answer: scimError(400, `Corpo PATCH inválido: o esquema deve ser ${PATCH_SCHEMA}.`, "invalidSyntax") };
  }
  const operations: ScimPatchOperation[] = [];
  for (const operation of body.Operations) {
    if (!isPlainObject(operation) || typeof operation.op !== "string" || !/^(add|replace|remove)$/i.test(operation.op)) {
      return { ok: false, answer: scimError(400, "Operação PATCH inválida: `op` deve ser add, replace ou remove.", "invalidSyntax") };
    }
    operations.push({ ...operation, op: operation.op.toLowerCase() } as ScimPatchOperation);
  }
  try {
    // scim-patch's ScimResource type wants meta dates the patch never reads.
    const patched = scimPatch(structuredClone(resource) as unknown as ScimResource, operations, {
      mutateDocument: true,
      treatMissingAsAdd: true,
    });
    return { ok: true, resource: patched as unknown as T };
  } catch (error) {
    if (error instanceof ScimError) {
      const detail = `Operação PATCH recusada (${error.message}).`;
      return { ok: false, answer: scimError(400, detail, error.scimCode === "noTarget" ? "noTarget" : "invalidValue") };
    }
    throw error;
  }
}
