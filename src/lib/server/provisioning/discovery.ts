import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, listAnswer, MAX_PAGE_SIZE, scimError, USER_SCHEMA, type ScimAnswer } from "./protocol.ts";
import { PUBLISHED_SCHEMAS, type AttributeDef } from "./schema.ts";

const SPC_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

/** What this service does (RFC 7643 §5): PATCH, filters and ETags yes; bulk, sort and password changes no. */
export function serviceProviderConfig(baseUrl: string): ScimAnswer {
  return {
    status: 200,
    body: {
      schemas: [SPC_SCHEMA],
      documentationUri: `${baseUrl.replace(/\/scim\/v2$/, "")}/`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_PAGE_SIZE },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "Token de portador",
          description: "O token definido em SCIM_TOKEN, no cabeçalho Authorization: Bearer.",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${baseUrl}/ServiceProviderConfig` },
    },
  };
}

const RESOURCE_TYPES = (baseUrl: string) => [
  {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "Pessoas com conta no portal",
    schema: USER_SCHEMA,
    schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
    meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/User` },
  },
  {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "Grupos do diretório; o nome dá perfis pelo OIDC_ROLE_MAP",
    schema: GROUP_SCHEMA,
    meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/Group` },
  },
];

/** An attribute as RFC 7643 §7 publishes it, with the defaults spelled out. */
function published(attribute: AttributeDef): Record<string, unknown> {
  const { maxLength: _maxLength, subAttributes, ...rest } = attribute;
  return {
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: "readWrite",
    returned: "default",
    uniqueness: "none",
    ...rest,
    ...(attribute.type === "reference" ? { referenceTypes: ["User", "Group", "external"] } : {}),
    ...(subAttributes ? { subAttributes: subAttributes.map(published) } : {}),
  };
}

/** Exactly what schema.ts keeps: a PATCH path outside these attributes is refused. */
const SCHEMAS = (baseUrl: string) =>
  PUBLISHED_SCHEMAS.map((schema) => ({
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.map(published),
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${schema.id}` },
  }));

export function resourceTypes(baseUrl: string, id: string | null): ScimAnswer {
  const all = RESOURCE_TYPES(baseUrl);
  if (id === null) return listAnswer(all, all.length, 1);
  const found = all.find((type) => type.id === id);
  return found ? { status: 200, body: found } : scimError(404, "Tipo de recurso não encontrado.");
}

export function schemas(baseUrl: string, id: string | null): ScimAnswer {
  const all = SCHEMAS(baseUrl);
  if (id === null) return listAnswer(all, all.length, 1);
  const found = all.find((schema) => schema.id === id);
  return found ? { status: 200, body: found } : scimError(404, "Esquema não encontrado.");
}
