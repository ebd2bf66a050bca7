import { describe, expect, it } from "vitest";
import { projectResource, readProjection, shows } from "../../../src/lib/server/provisioning/projection";
import { GROUP_RESOURCE, USER_RESOURCE } from "../../../src/lib/server/provisioning/schema";

const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const query = (text: string) => new URLSearchParams(text);

describe("SCIM projection", () => {
  it("keeps only published names, each once, however long the list", () => {
    const names = [
      ...Array.from({ length: 5_000 }, (_, index) => `nome${index}`),
      "userName",
      "USERNAME",
      "name.givenName",
      "name.nada",
      "emails.value.x",
    ];
    const read = readProjection(USER_RESOURCE, query(`attributes=${encodeURIComponent(names.join(","))}`));
    expect(read.ok && read.projection).toEqual({ kind: "include", paths: [["username"], ["name", "givenname"]] });
  });

  it("reads URN-qualified names of the core schema and of the extension", () => {
    const read = readProjection(
      USER_RESOURCE,
      query(
        `excludedAttributes=${encodeURIComponent(`urn:ietf:params:scim:schemas:core:2.0:User:name.familyName,${ENTERPRISE}:manager.value,${ENTERPRISE}`)}`,
      ),
    );
    expect(read.ok && read.projection).toEqual({
      kind: "exclude",
      paths: [["name", "familyname"], [ENTERPRISE.toLowerCase(), "manager", "value"], [ENTERPRISE.toLowerCase()]],
    });
  });

  it("cuts multi-valued complex attributes element by element and never drops id or schemas", () => {
    const resource = {
      schemas: ["s"],
      id: "1",
      displayName: "G",
      members: [
        { value: "a", display: "a@x" },
        { value: "b", display: "b@x" },
      ],
    };
    const include = readProjection(GROUP_RESOURCE, query("attributes=members.display"));
    expect(include.ok && projectResource(resource, include.projection)).toEqual({
      schemas: ["s"],
      id: "1",
      members: [{ display: "a@x" }, { display: "b@x" }],
    });
    const exclude = readProjection(GROUP_RESOURCE, query("excludedAttributes=id,schemas,members.value"));
    expect(exclude.ok && projectResource(resource, exclude.projection)).toEqual({
      ...resource,
      members: [{ display: "a@x" }, { display: "b@x" }],
    });
    expect(include.ok && shows(include.projection, "members")).toBe(true);
    expect(exclude.ok && shows(exclude.projection, "members")).toBe(true);
    const noMembers = readProjection(GROUP_RESOURCE, query("excludedAttributes=MEMBERS"));
    expect(noMembers.ok && shows(noMembers.projection, "members")).toBe(false);
  });

  it("both parameters are a 400 invalidSyntax; empty ones are no projection", () => {
    const both = readProjection(USER_RESOURCE, query("attributes=userName&excludedAttributes=emails"));
    expect(both.ok).toBe(false);
    expect(!both.ok && both.answer).toMatchObject({ status: 400, body: { scimType: "invalidSyntax" } });
    expect(readProjection(USER_RESOURCE, query("attributes=&excludedAttributes=%20"))).toEqual({ ok: true, projection: { kind: "all" } });
  });
});
