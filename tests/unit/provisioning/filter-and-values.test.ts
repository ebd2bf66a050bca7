import { describe, expect, it } from "vitest";
import { parseEqualityFilter } from "../../../src/lib/server/provisioning/filter";
import { readBoolean, readPage } from "../../../src/lib/server/provisioning/protocol";
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
    const patched = applyPatch(user, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [
        { op: "Replace", path: "name.givenName", value: "B" },
        { op: "replace", value: { active: "False" } },
      ],
    });
    expect(patched).toMatchObject({ ok: true, resource: { name: { givenName: "B" }, active: "False" } });
    expect(applyPatch(user, { schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [] })).toEqual({
      ok: true,
      resource: user,
    });
    expect(applyPatch(user, { Operations: [{ op: "move", path: "x" }] })).toMatchObject({ ok: false, answer: { status: 400 } });
  });
});
