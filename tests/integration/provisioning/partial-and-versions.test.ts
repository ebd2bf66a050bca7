/**
 * Provisioning II, items 3 and 5 (RFC 7644 §3.4.2.5, §3.9, §3.14; RFC 7643 §3.1), on the built
 * server, both engines: `attributes` and `excludedAttributes` on every read, list and write answer;
 * `meta.lastModified` and `meta.version` follow every change of what a resource shows, whoever
 * made it; `ETag`, `If-None-Match` (304) and `If-Match` (412, checked atomically with the write).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

let counter = 0;
const address = (name: string) => `${name}-${++counter}@b1.example.com`;

describe("SCIM partial answers and versions", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const person = (userName: string) => ({
    schemas: [USER, ENTERPRISE],
    userName,
    name: { givenName: "Ana", familyName: "Souza", formatted: "Ana Souza" },
    emails: [{ value: userName, type: "work", primary: true }],
    title: "Analista",
    [ENTERPRISE]: { department: "Produto", costCenter: "CC-1" },
  });
  const create = async (userName = address("parcial")) => {
    const created = await scim(server, "POST", "/Users", person(userName));
    expect(created.status).toBe(201);
    return created.body!;
  };
  /** Waits until the clock has moved past `ms`, so that a change made now gets a later time. */
  const after = async (ms: number) => {
    while (Date.now() <= ms + 1) await new Promise((resolve) => setTimeout(resolve, 2));
  };

  it("`attributes` returns only the named attributes (with id and schemas), in any case and with URNs", async () => {
    const { id } = await create();
    const only = await scim(server, "GET", `/Users/${id}?attributes=USERNAME`);
    expect(Object.keys(only.body!).sort()).toEqual(["id", "schemas", "userName"]);

    const subs = await scim(server, "GET", `/Users/${id}?attributes=name.givenName,emails.value`);
    expect(subs.body).toEqual({ schemas: [USER, ENTERPRISE], id, name: { givenName: "Ana" }, emails: [{ value: expect.any(String) }] });

    const urns = await scim(
      server,
      "GET",
      `/Users/${id}?attributes=${encodeURIComponent(`${ENTERPRISE}:department,${USER}:title,meta.lastModified`)}`,
    );
    expect(urns.body).toEqual({
      schemas: [USER, ENTERPRISE],
      id,
      title: "Analista",
      [ENTERPRISE]: { department: "Produto" },
      meta: { lastModified: expect.any(String) },
    });
    const wholeExtension = await scim(server, "GET", `/Users/${id}?attributes=${encodeURIComponent(ENTERPRISE)}`);
    expect(wholeExtension.body![ENTERPRISE]).toEqual({ department: "Produto", costCenter: "CC-1" });
  });

  it("`excludedAttributes` leaves the named attributes out, never id or schemas", async () => {
    const { id } = await create();
    const answer = await scim(server, "GET", `/Users/${id}?excludedAttributes=emails,meta,name.familyName,id,schemas,groups`);
    expect(answer.body).toMatchObject({ id, schemas: [USER, ENTERPRISE], name: { givenName: "Ana", formatted: "Ana Souza" } });
    for (const gone of ["emails", "meta", "groups"]) expect(answer.body).not.toHaveProperty(gone);
    expect(answer.body!.name).not.toHaveProperty("familyName");
    expect(answer.body!.userName).toBeDefined();
  });

  it("lists, creates, replacements and changes answer with the projection too", async () => {
    const userName = address("lista");
    const created = await scim(server, "POST", "/Users?attributes=userName", person(userName));
    expect(created.status).toBe(201);
    expect(Object.keys(created.body!).sort()).toEqual(["id", "schemas", "userName"]);
    const { id } = created.body!;

    const list = await scim(server, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&attributes=title`);
    expect(list.body).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    expect(list.body!.Resources).toEqual([{ schemas: [USER, ENTERPRISE], id, title: "Analista" }]);

    const replaced = await scim(server, "PUT", `/Users/${id}?excludedAttributes=emails,groups,meta`, {
      ...person(userName),
      title: "Gerente",
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ title: "Gerente", userName });
    expect(replaced.body).not.toHaveProperty("emails");
    expect(replaced.body).not.toHaveProperty("meta");

    const patched = await scim(server, "PATCH", `/Users/${id}?attributes=active`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expect(patched.body).toEqual({ schemas: [USER, ENTERPRISE], id, active: false });
  });

  it("groups: `members` is left out, cut or kept as asked, and a PATCH that asks for attributes answers 200 with them", async () => {
    const member = await create();
    const group = await scim(server, "POST", "/Groups", {
      schemas: [GROUP],
      displayName: `Parcial ${++counter}`,
      members: [{ value: member.id }],
    });
    const gid = group.body!.id;
    const named = await scim(server, "GET", `/Groups/${gid}?attributes=displayName`);
    expect(Object.keys(named.body!).sort()).toEqual(["displayName", "id", "schemas"]);
    const values = await scim(server, "GET", `/Groups/${gid}?attributes=members.value`);
    expect(values.body!.members).toEqual([{ value: member.id }]);
    const listed = await scim(server, "GET", `/Groups?filter=${encodeURIComponent(`id eq "${gid}"`)}&excludedAttributes=members`);
    expect(listed.body!.Resources[0]).not.toHaveProperty("members");

    const other = await create();
    const add = { schemas: [PATCH], Operations: [{ op: "add", path: "members", value: [{ value: other.id }] }] };
    const silent = await scim(server, "PATCH", `/Groups/${gid}`, add);
    expect(silent.status).toBe(204);
    expect(silent.etag).toMatch(/^W\/"/);
    const remove = { schemas: [PATCH], Operations: [{ op: "remove", path: `members[value eq "${other.id}"]` }] };
    const answered = await scim(server, "PATCH", `/Groups/${gid}?attributes=members.value`, remove);
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ schemas: [GROUP], id: gid, members: [{ value: member.id }] });
  });

  it("both parameters at once are a 400 and nothing is written; names that reach nothing select nothing", async () => {
    const userName = address("ambos");
    const both = await scim(server, "POST", "/Users?attributes=userName&excludedAttributes=emails", person(userName));
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ scimType: "invalidSyntax" });
    const found = await scim(server, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(found.body!.totalResults).toBe(0);

    const { id } = await create();
    for (const names of [
      "__proto__",
      "constructor.prototype,__proto__.polluted",
      "urn:x:y",
      "name..givenName",
      "%01,%E2%80%AE,userName%E2%80%AE",
    ]) {
      const answer = await scim(server, "GET", `/Users/${id}?attributes=${names}`);
      expect(answer.status, names).toBe(200);
      expect(Object.keys(answer.body!).sort(), names).toEqual(["id", "schemas"]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("meta.lastModified and meta.version move with each change, not with a change of nothing", async () => {
    const created = await create();
    const { id } = created;
    expect(created.meta.lastModified).toBe(created.meta.created);
    await after(Date.parse(created.meta.created));

    const same = await scim(server, "PUT", `/Users/${id}`, person(created.userName));
    expect(same.body!.meta).toEqual(created.meta);

    const changed = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "title", value: "Diretora" }],
    });
    expect(Date.parse(changed.body!.meta.lastModified)).toBeGreaterThan(Date.parse(created.meta.created));
    expect(changed.body!.meta.version).not.toBe(created.meta.version);
    expect(changed.body!.meta.created).toBe(created.meta.created);

    await after(Date.parse(changed.body!.meta.lastModified));
    const off = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    await after(Date.parse(off.body!.meta.lastModified));
    const on = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "active", value: true }],
    });
    expect(Date.parse(on.body!.meta.lastModified)).toBeGreaterThan(Date.parse(off.body!.meta.lastModified));
    expect(new Set([created.meta.version, changed.body!.meta.version, off.body!.meta.version, on.body!.meta.version]).size).toBe(4);
    expect((await scim(server, "GET", `/Users/${id}`)).body!.meta).toEqual(on.body!.meta);
  });

  it("a change made elsewhere (the panel, a group, a deletion) moves the versions of what shows it", async () => {
    const ana = await create();
    const bia = await create();
    const group = (
      await scim(server, "POST", "/Groups", { schemas: [GROUP], displayName: `Versões ${++counter}`, members: [{ value: ana.id }] })
    ).body!;
    const read = async (path: string) => (await scim(server, "GET", path)).body!.meta.version as string;

    // Membership: the person's `groups` changed.
    const anaInGroup = await read(`/Users/${ana.id}`);
    expect(anaInGroup).not.toBe(ana.meta.version);

    // The panel renames Ana: her resource changed, not the group's (members show e-mails, not names).
    const groupBefore = await read(`/Groups/${group.id}`);
    await server.db.update(users).set({ fullName: "Ana Renomeada" }).where(eq(users.id, ana.id));
    expect(await read(`/Users/${ana.id}`)).not.toBe(anaInGroup);
    expect(await read(`/Groups/${group.id}`)).toBe(groupBefore);

    // A new e-mail shows in the group's members.
    await server.db
      .update(users)
      .set({ email: address("novo-endereco") })
      .where(eq(users.id, ana.id));
    const groupAfterEmail = await read(`/Groups/${group.id}`);
    expect(groupAfterEmail).not.toBe(groupBefore);

    // Renaming the group changes every member's `groups[].display`; a member deleted changes the group.
    const anaBeforeRename = await read(`/Users/${ana.id}`);
    const biaBefore = await read(`/Users/${bia.id}`);
    await scim(server, "PATCH", `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", path: "displayName", value: `Renomeado ${++counter}` }],
    });
    expect(await read(`/Users/${ana.id}`)).not.toBe(anaBeforeRename);
    expect(await read(`/Users/${bia.id}`)).toBe(biaBefore);
    const groupBeforeDelete = await read(`/Groups/${group.id}`);
    expect((await scim(server, "DELETE", `/Users/${ana.id}`)).status).toBe(204);
    expect(await read(`/Groups/${group.id}`)).not.toBe(groupBeforeDelete);
  });

  it("ETag, If-None-Match and If-Match: 304, 412 with nothing changed, and ServiceProviderConfig says so", async () => {
    expect((await scim(server, "GET", "/ServiceProviderConfig")).body!.etag).toEqual({ supported: true });
    const created = await scim(server, "POST", "/Users", person(address("etag")));
    const { id } = created.body!;
    expect(created.etag).toBe(created.body!.meta.version);
    const read = await scim(server, "GET", `/Users/${id}?attributes=userName`);
    expect(read.etag).toBe(created.etag);

    const unchanged = await scim(server, "GET", `/Users/${id}`, undefined, SCIM_TOKEN, { "if-none-match": created.etag! });
    expect(unchanged.status).toBe(304);
    expect(unchanged.etag).toBe(created.etag);
    expect(unchanged.body).toBeNull();

    const title = (value: string) => ({ schemas: [PATCH], Operations: [{ op: "replace", path: "title", value }] });
    const first = await scim(server, "PATCH", `/Users/${id}`, title("Primeira"), SCIM_TOKEN, { "if-match": created.etag! });
    expect(first.status).toBe(200);
    expect(first.etag).not.toBe(created.etag);
    const stale = await scim(server, "PATCH", `/Users/${id}`, title("Atrasada"), SCIM_TOKEN, { "if-match": created.etag! });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ status: "412" });
    const stalePut = await scim(server, "PUT", `/Users/${id}`, person(created.body!.userName), SCIM_TOKEN, { "if-match": created.etag! });
    expect(stalePut.status).toBe(412);
    const staleDelete = await scim(server, "DELETE", `/Users/${id}`, undefined, SCIM_TOKEN, { "if-match": created.etag! });
    expect(staleDelete.status).toBe(412);
    const now = await scim(server, "GET", `/Users/${id}`);
    expect(now.body).toMatchObject({ title: "Primeira" });
    expect(now.etag).toBe(first.etag);
    expect((await scim(server, "GET", `/Users/${id}`, undefined, SCIM_TOKEN, { "if-none-match": created.etag! })).status).toBe(200);
    // `*` and a list naming the current version pass.
    expect((await scim(server, "PATCH", `/Users/${id}`, title("Lista"), SCIM_TOKEN, { "if-match": `W/"x", ${first.etag}` })).status).toBe(
      200,
    );
    expect((await scim(server, "DELETE", `/Users/${id}`, undefined, SCIM_TOKEN, { "if-match": "*" })).status).toBe(204);
  });

  it("ten changes of a person and ten of a group sent at once with one If-Match: one of each is applied", async () => {
    const created = await create();
    const group = (await scim(server, "POST", "/Groups", { schemas: [GROUP], displayName: `Corrida ${++counter}` })).body!;
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        scim(
          server,
          "PATCH",
          `/Users/${created.id}`,
          { schemas: [PATCH], Operations: [{ op: "replace", path: "title", value: `T${index}` }] },
          SCIM_TOKEN,
          {
            "if-match": created.meta.version,
          },
        ),
      ).concat(
        Array.from({ length: 10 }, (_, index) =>
          scim(
            server,
            "PATCH",
            `/Groups/${group.id}`,
            { schemas: [PATCH], Operations: [{ op: "replace", path: "displayName", value: `Corrida ${counter}-${index}` }] },
            SCIM_TOKEN,
            {
              "if-match": group.meta.version,
            },
          ),
        ),
      ),
    );
    const users = attempts.slice(0, 10).map((answer) => answer.status);
    const groups = attempts.slice(10).map((answer) => answer.status);
    expect(users.filter((status) => status === 200)).toHaveLength(1);
    expect(users.filter((status) => status === 412)).toHaveLength(9);
    expect(groups.filter((status) => status === 204)).toHaveLength(1);
    expect(groups.filter((status) => status === 412)).toHaveLength(9);
  });
});
