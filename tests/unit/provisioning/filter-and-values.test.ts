import { describe, expect, it } from "vitest";
import { parseEqualityFilter } from "../../../src/lib/server/provisioning/filter";
import { readBoolean, readPage } from "../../../src/lib/server/provisioning/protocol";
import { resourceTypes, schemas } from "../../../src/lib/server/provisioning/discovery";
import { USER_RESOURCE, GROUP_RESOURCE } from "../../../src/lib/server/provisioning/schema";
import { applyPatch } from "../../../src/lib/server/provisioning/patch";

const USERS = ["username", "externalid", "id", "emails.value"];

describe("SCIM list filters", () => {
  it("reads the equality filters Entra ID and Okta send, attribute names in any case", () => {
    expect(parseEqualityFilter('userName eq "Ana@B1.example.com"', USERS)).toEqual({
      ok: true,
      tests: [{ attribute: "username", value: "Ana@B1.example.com" }],
    });
    expect(parseEqualityFilter('USERNAME EQ "a@b1.example.com"', USERS)).toMatchObject({ ok: true, tests: [{ attribute: "username" }] });
    expect(parseEqualityFilter('emails[type eq "work"].value eq "a@b1.example.com"', USERS)).toEqual({
      ok: true,
      tests: [{ attribute: "emails.value", value: "a@b1.example.com" }],
    });
    expect(parseEqualityFilter('externalId eq "x" and userName eq "a@b1.example.com"', USERS)).toMatchObject({ ok: true, tests: [{}, {}] });
    expect(parseEqualityFilter(null, USERS)).toEqual({ ok: true, tests: [] });
  });

  it("refuses what it cannot answer exactly, in Portuguese", () => {
    for (const text of [
      'userName co "a"',
      'userName eq "a" or userName eq "b"',
      'title eq "x"',
      'emails[type eq "home"].value eq "x"',
      "userName eq",
    ]) {
      const parsed = parseEqualityFilter(text, USERS);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.detail).toMatch(/Filtro/);
    }
  });
});

describe("SCIM values", () => {
  it("reads active as a boolean or Entra's strings, nothing else", () => {
    expect([true, false, "True", "False", "true", " FALSE "].map(readBoolean)).toEqual([true, false, true, false, true, false]);
    expect(["sim", 1, null, undefined].map(readBoolean)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("pages: startIndex below 1 reads as 1, count capped at 200 and never negative", () => {
    expect(readPage(new URLSearchParams("startIndex=0&count=-3"))).toEqual({ startIndex: 1, count: 0 });
    expect(readPage(new URLSearchParams("count=5000"))).toEqual({ startIndex: 1, count: 200 });
    expect(readPage(new URLSearchParams(""))).toEqual({ startIndex: 1, count: 100 });
  });

  it("PATCH: capitalised ops, a path-less value object, an empty list", () => {
    const user = { schemas: ["u"], userName: "a", active: true, name: { givenName: "A" }, meta: { resourceType: "User" } };
    const patched = applyPatch(USER_RESOURCE, user, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [
        { op: "Replace", path: "name.givenName", value: "B" },
        { op: "replace", value: { active: "False" } },
      ],
    });
    expect(patched).toMatchObject({ ok: true, resource: { name: { givenName: "B" }, active: false } });
    expect(applyPatch(USER_RESOURCE, user, { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [] })).toEqual({
      ok: true,
      resource: user,
    });
    expect(applyPatch(USER_RESOURCE, user, { Operations: [{ op: "move", path: "x" }] })).toMatchObject({
      ok: false,
      answer: { status: 400 },
    });
  });

  const op = (...Operations: unknown[]) => ({ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations });
  const refusal = (scimType: string) => ({ ok: false, answer: { status: 400, body: { scimType } } });
  const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

  it("PATCH: a path outside the published schema is invalidPath, a read-only attribute is mutability", () => {
    const user = { id: "u1", userName: "a", name: { givenName: "A" }, emails: [{ value: "a@x", type: "work" }] };
    for (const path of [
      "__proto__.execArgv",
      "constructor.prototype.x",
      "name.__proto__",
      'emails[type eq "work"].__proto__',
      "roles",
      "x.y.z",
      "emails.value",
      'name[givenName eq "A"]',
      "urn:exemplo:ext:poder",
    ]) {
      expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path, value: "x" })), path).toMatchObject(refusal("invalidPath"));
    }
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", value: { execArgv: ["--import", "x"] } }))).toMatchObject(
      refusal("invalidPath"),
    );
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path: 'emails[__proto__ eq "x"].value', value: "x" }))).toMatchObject(
      refusal("invalidPath"),
    );
    for (const path of ["id", "meta", "groups", "meta.created"]) {
      expect(applyPatch(USER_RESOURCE, user, op({ op: "replace", path, value: "x" })), path).toMatchObject(refusal("mutability"));
    }
    expect(applyPatch(USER_RESOURCE, user, op({ op: "replace", value: { id: "outro" } }))).toMatchObject(refusal("mutability"));
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path: "name", value: { apelido: "x" } }))).toMatchObject(refusal("invalidPath"));
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path: "title", value: "Ger\u202eente" }))).toMatchObject(
      refusal("invalidValue"),
    );
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path: "title", value: { a: 1 } }))).toMatchObject(refusal("invalidValue"));
  });

  it("PATCH: the result is made of null-prototype objects", () => {
    const patched = applyPatch(
      USER_RESOURCE,
      { id: "u1", name: { givenName: "A" } },
      op({ op: "add", path: "name.familyName", value: "B" }),
    );
    if (!patched.ok) throw new Error("recusado");
    expect(Object.getPrototypeOf(patched.resource)).toBeNull();
    expect(Object.getPrototypeOf(patched.resource.name)).toBeNull();
  });

  it("PATCH: Entra's value path adds a work e-mail when none matches; attribute names are case-insensitive", () => {
    const patched = applyPatch(USER_RESOURCE, { id: "u1" }, op({ op: "Replace", path: 'Emails[Type eq "work"].Value', value: "b@x" }));
    expect(patched).toMatchObject({ ok: true, resource: { emails: [{ type: "work", value: "b@x" }] } });
    const none = applyPatch(USER_RESOURCE, { id: "u1" }, op({ op: "replace", path: 'emails[type ne "work"].value', value: "b@x" }));
    expect(none).toMatchObject(refusal("noTarget"));
  });

  it("PATCH: the enterprise extension by attribute, as a whole by its URN, and path-less keyed by it", () => {
    const user = { id: "u1", [ENTERPRISE]: { department: "Vendas", employeeNumber: "7" } };
    expect(applyPatch(USER_RESOURCE, user, op({ op: "replace", path: `${ENTERPRISE}:department`, value: "TI" }))).toMatchObject({
      ok: true,
      resource: { [ENTERPRISE]: { department: "TI", employeeNumber: "7" } },
    });
    expect(applyPatch(USER_RESOURCE, user, op({ op: "replace", path: ENTERPRISE, value: { division: "Sul" } }))).toMatchObject({
      ok: true,
      resource: { [ENTERPRISE]: { department: "Vendas", employeeNumber: "7", division: "Sul" } },
    });
    const keyed = applyPatch(USER_RESOURCE, user, op({ op: "replace", value: { [ENTERPRISE]: { manager: { value: "m1" } } } }));
    expect(keyed).toMatchObject({ ok: true, resource: { [ENTERPRISE]: { manager: { value: "m1" } } } });
    if (keyed.ok) expect(Object.keys(keyed.resource)).toEqual(["id", ENTERPRISE]);
    const removed = applyPatch(USER_RESOURCE, user, op({ op: "remove", path: ENTERPRISE }));
    expect(removed.ok && Object.keys(removed.resource)).toEqual(["id"]);
    expect(applyPatch(USER_RESOURCE, user, op({ op: "add", path: `${ENTERPRISE}:poder`, value: "x" }))).toMatchObject(
      refusal("invalidPath"),
    );
  });

  it("PATCH on a group: Okta's rename repeating the id, members added and removed by value", () => {
    const group = { id: "g1", displayName: "a", members: [{ value: "u1" }, { value: "u2" }] };
    expect(applyPatch(GROUP_RESOURCE, group, op({ op: "replace", value: { id: "g1", displayName: "b" } }))).toMatchObject({
      ok: true,
      resource: { displayName: "b" },
    });
    const changed = applyPatch(
      GROUP_RESOURCE,
      group,
      op(
        { op: "Add", path: "members", value: [{ value: "u3", display: "c" }, { value: "u1" }] },
        { op: "Remove", path: "members", value: [{ value: "u2", $ref: null }] },
        { op: "remove", path: 'members[value eq "u3"]' },
      ),
    );
    expect(changed).toMatchObject({ ok: true, resource: { members: [{ value: "u1" }] } });
  });

  it("discovery: every schema a resource type declares is published, and a PATCH takes each published attribute", () => {
    const base = "https://portal.example/scim/v2";
    const types = (resourceTypes(base, null).body as { Resources: { schema: string; schemaExtensions?: { schema: string }[] }[] })
      .Resources;
    const published = (
      schemas(base, null).body as {
        Resources: {
          id: string;
          attributes: { name: string; mutability: string; type: string; multiValued: boolean; subAttributes?: { name: string }[] }[];
        }[];
      }
    ).Resources;
    const ids = published.map((schema) => schema.id);
    for (const type of types) {
      for (const id of [type.schema, ...(type.schemaExtensions ?? []).map((extension) => extension.schema)]) expect(ids).toContain(id);
    }
    for (const schema of published) {
      const resource = schema.id.endsWith(":Group") ? GROUP_RESOURCE : USER_RESOURCE;
      const prefix = schema.id === ENTERPRISE ? `${ENTERPRISE}:` : "";
      for (const attribute of schema.attributes) {
        if (attribute.mutability === "readOnly") continue;
        const value =
          attribute.type === "boolean"
            ? true
            : attribute.type === "complex"
              ? attribute.multiValued
                ? [{ value: "v" }]
                : { value: "v" }
              : "v";
        const sub = attribute.type === "complex" && !attribute.multiValued ? attribute.subAttributes![0]!.name : null;
        const path = `${prefix}${attribute.name}${sub ? `.${sub}` : ""}`;
        const result = applyPatch(resource, { id: "x" }, op({ op: "add", path, value: sub ? "v" : value }));
        expect(result.ok, path).toBe(true);
      }
    }
  });
});
