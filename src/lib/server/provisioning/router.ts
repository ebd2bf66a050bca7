import { resourceTypes, schemas, serviceProviderConfig } from "./discovery.ts";
import { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from "./groups.ts";
import { isPlainObject, matchesTag, pageQueryProblem, scimError, type ScimAnswer, type ScimContext } from "./protocol.ts";
import { projectAnswer, readProjection, shows, type Projection } from "./projection.ts";
import { GROUP_RESOURCE, USER_RESOURCE } from "./schema.ts";
import { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from "./users.ts";

/** A SCIM request once the edge has accepted its token and read its body. */
export interface ScimRequest {
  method: string;
  /** Path segments after `/scim/v2`, decoded (`["Users", "<id>"]`). */
  segments: string[];
  query: URLSearchParams;
  body: unknown;
  /** The `If-Match` and `If-None-Match` headers (RFC 7644 §3.14), null when not sent. */
  ifMatch: string | null;
  ifNoneMatch: string | null;
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
    case "groups": {
      const users = collection.toLowerCase() === "users";
      const read = readProjection(users ? USER_RESOURCE : GROUP_RESOURCE, query);
      if (!read.ok) return read.answer;
      const answer = await (users ? answerUsers : answerGroups)(ctx, request, resource, read.projection);
      return finish(answer, request, resource, read.projection);
    }
    default:
      return scimError(404, "Recurso SCIM não encontrado.");
  }
}

type Answerer = (ctx: ScimContext, request: ScimRequest, id: string | null, projection: Projection) => Promise<ScimAnswer>;

const answerUsers: Answerer = (ctx, { method, query, body, ifMatch }, id) => {
  if (id === null) {
    if (method === "GET") return listScimUsers(ctx, query);
    return method === "POST" ? createScimUser(ctx, body) : Promise.resolve(methodNotAllowed());
  }
  if (method === "GET") return getScimUser(ctx, id);
  if (method === "PUT") return replaceScimUser(ctx, id, body, ifMatch);
  if (method === "PATCH") return patchScimUser(ctx, id, body, ifMatch);
  return method === "DELETE" ? deleteScimUser(ctx, id, ifMatch) : Promise.resolve(methodNotAllowed());
};

const answerGroups: Answerer = (ctx, { method, query, body, ifMatch }, id, projection) => {
  const withMembers = shows(projection, "members");
  if (id === null) {
    if (method === "GET") return listScimGroups(ctx, query, withMembers);
    return method === "POST" ? createScimGroup(ctx, body) : Promise.resolve(methodNotAllowed());
  }
  if (method === "GET") return getScimGroup(ctx, id, withMembers);
  if (method === "PUT") return replaceScimGroup(ctx, id, body, ifMatch);
  if (method === "PATCH") return patchScimGroup(ctx, id, body, ifMatch, projection.kind !== "all");
  return method === "DELETE" ? deleteScimGroup(ctx, id, ifMatch) : Promise.resolve(methodNotAllowed());
};

/**
 * A resource's answer with its version in `ETag` (taken before the projection may leave `meta`
 * out), 304 for a read whose `If-None-Match` names that version, and the projection applied.
 */
function finish(answer: ScimAnswer, request: ScimRequest, id: string | null, projection: Projection): ScimAnswer {
  const { body } = answer;
  const version = answer.status < 300 && isPlainObject(body) && isPlainObject(body.meta) ? body.meta.version : undefined;
  if (typeof version !== "string") return projectAnswer(answer, projection);
  if (request.method === "GET" && id !== null && request.ifNoneMatch !== null && matchesTag(request.ifNoneMatch, version)) {
    return { status: 304, etag: version };
  }
  return { ...projectAnswer(answer, projection), etag: version };
}
