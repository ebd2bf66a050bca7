import { resourceTypes, schemas, serviceProviderConfig } from "./discovery.ts";
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from "./groups.ts";
import { pageQueryProblem, scimError, type ScimAnswer, type ScimContext } from "./protocol.ts";
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from "./users.ts";

/** A SCIM request once the edge has accepted its token and read its body. */
export interface ScimRequest {
  method: string;
  /** Path segments after `/scim/v2`, decoded (`["Users", "<id>"]`). */
  segments: string[];
  query: URLSearchParams;
  body: unknown;
}

const methodNotAllowed = () => scimError(405, "Método não permitido neste recurso.");

/** Which provisioning call a request is; every answer is a SCIM answer, never an exception for bad input. */
export async function answerScimRequest(ctx: ScimContext, request: ScimRequest): Promise<ScimAnswer> {
  const { method, segments, query, body } = request;
  const [collection, id, ...rest] = segments;
  if (rest.length > 0 || collection === undefined) return scimError(404, "Recurso SCIM não encontrado.");
  const resource = id ?? null;
  // POST /.search (RFC 7644 §3.4.3) is not supported: filters go in GET's query.
  if (resource?.toLowerCase() === ".search") return scimError(404, "Pesquisa por POST /.search não é suportada: use GET com `filter`.");
  const pageProblem = method === "GET" && resource === null ? pageQueryProblem(query) : null;
  if (pageProblem) return pageProblem;
  switch (collection.toLowerCase()) {
    case "serviceproviderconfig":
      return method === "GET" && resource === null ? serviceProviderConfig(ctx.baseUrl) : methodNotAllowed();
    case "resourcetypes":
      return method === "GET" ? resourceTypes(ctx.baseUrl, resource) : methodNotAllowed();
    case "schemas":
      return method === "GET" ? schemas(ctx.baseUrl, resource) : methodNotAllowed();
    case "users":
      if (resource === null) {
        if (method === "GET") return listScimUsers(ctx, query);
        return method === "POST" ? createScimUser(ctx, body) : methodNotAllowed();
      }
      if (method === "GET") return getScimUser(ctx, resource);
      if (method === "PUT") return replaceScimUser(ctx, resource, body);
      if (method === "PATCH") return patchScimUser(ctx, resource, body);
      return method === "DELETE" ? deleteScimUser(ctx, resource) : methodNotAllowed();
    case "groups":
      if (resource === null) {
        if (method === "GET") return listScimGroups(ctx, query);
        return method === "POST" ? createScimGroup(ctx, body) : methodNotAllowed();
      }
      if (method === "GET") return getScimGroup(ctx, resource, query);
      if (method === "PUT") return replaceScimGroup(ctx, resource, body);
      if (method === "PATCH") return patchScimGroup(ctx, resource, body);
      return method === "DELETE" ? deleteScimGroup(ctx, resource) : methodNotAllowed();
    default:
      return scimError(404, "Recurso SCIM não encontrado.");
  }
}
