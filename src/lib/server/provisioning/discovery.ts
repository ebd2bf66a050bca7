import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, listAnswer, MAX_PAGE_SIZE, scimError, USER_SCHEMA, type ScimAnswer } from "./protocol.ts";

const SPC_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig";
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType";
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema";

/** What this service does (RFC 7643 §5): PATCH and filters yes; bulk, sort, ETags and password changes no. */
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
      etag: { supported: false },
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

type Attribute = {
  name: string;
  type: string;
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  uniqueness?: string;
  mutability?: string;
  subAttributes?: Attribute[];
};

const attribute = (a: Attribute): Record<string, unknown> => ({
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...a,
  ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attribute) } : {}),
});

const SCHEMAS = (baseUrl: string) => [
  {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: "User",
    description: "Conta no portal; userName é o e-mail corporativo",
    attributes: [
      attribute({ name: "userName", type: "string", required: true, uniqueness: "server" }),
      attribute({
        name: "name",
        type: "complex",
        subAttributes: [
          { name: "formatted", type: "string" },
          { name: "givenName", type: "string" },
          { name: "familyName", type: "string" },
        ],
      }),
      attribute({ name: "displayName", type: "string" }),
      attribute({ name: "active", type: "boolean" }),
      attribute({
        name: "emails",
        type: "complex",
        multiValued: true,
        subAttributes: [
          { name: "value", type: "string" },
          { name: "type", type: "string" },
          { name: "primary", type: "boolean" },
        ],
      }),
      attribute({
        name: "groups",
        type: "complex",
        multiValued: true,
        mutability: "readOnly",
        subAttributes: [
          { name: "value", type: "string" },
          { name: "display", type: "string" },
        ],
      }),
    ],
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: "Group",
    description: "Grupo do diretório",
    attributes: [
      attribute({ name: "displayName", type: "string", required: true, uniqueness: "server" }),
      attribute({
        name: "members",
        type: "complex",
        multiValued: true,
        subAttributes: [
          { name: "value", type: "string" },
          { name: "display", type: "string" },
        ],
      }),
    ],
    meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
  },
];

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
