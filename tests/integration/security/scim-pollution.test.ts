/**
 * Security IV, finding 1: the directory's token is not a key to the server. A SCIM PATCH whose path
 * or value reaches `__proto__`, `constructor` or `prototype` once wrote onto `Object.prototype` of the
 * portal process: `__proto__.execArgv` ran the attacker's module in the next worker thread (an audit
 * export), `__proto__.Refresh` added a header to every page. Each way is tried on the built server;
 * the proof of harm (a file written by the module, a header on a page) must stay absent. Both engines.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";
import { createTestUser, type TestUser } from "../../support/users";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM PATCH cannot reach Object.prototype", () => {
  let server: RunningServer;
  let admin: TestUser;
  let userId = "";
  let groupId = "";
  const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "b1-pollution-")), "ran");
  const module = `data:text/javascript,import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran")`;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN });
    admin = await createTestUser(server.db, ["admin"], "admin-pollution");
    userId = (await scim(server, "POST", "/Users", { schemas: [USER], userName: "poluicao@b1.example.com", active: true })).body!.id;
    groupId = (await scim(server, "POST", "/Groups", { schemas: [GROUP], displayName: "poluicao" })).body!.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  /**
   * Each attack as raw JSON operations: JSON.stringify drops a `__proto__` key written in an object
   * literal (it sets the literal's prototype), so the bodies are spelled out as an attacker sends them.
   * MODULE is replaced by a data: URL that writes the marker file.
   */
  const attacks: { name: string; operations: string }[] = [
    { name: "path __proto__.execArgv", operations: `[{"op":"add","path":"__proto__.execArgv","value":["--import","MODULE"]}]` },
    { name: "path __proto__.Refresh", operations: `[{"op":"add","path":"__proto__.Refresh","value":"0; url=https://evil.example"}]` },
    {
      name: "path constructor.prototype",
      operations: `[{"op":"add","path":"constructor.prototype.execArgv","value":["--import","MODULE"]}]`,
    },
    { name: "path emails[…].__proto__", operations: `[{"op":"add","path":"emails[type eq \\"work\\"].__proto__.polluted","value":"yes"}]` },
    { name: "path name.__proto__", operations: `[{"op":"replace","path":"name.__proto__","value":{"polluted":"yes"}}]` },
    { name: "path-less value with __proto__", operations: `[{"op":"add","value":{"__proto__":{"execArgv":["--import","MODULE"]}}}]` },
    { name: "path-less value with a nested __proto__", operations: `[{"op":"replace","value":{"name":{"__proto__":{"polluted":"yes"}}}}]` },
    {
      name: "path-less value keyed constructor",
      operations: `[{"op":"replace","value":{"constructor":{"prototype":{"polluted":"yes"}}}}]`,
    },
    { name: "an unknown attribute", operations: `[{"op":"add","path":"execArgv","value":["--import","MODULE"]}]` },
    { name: "an unknown attribute, path-less", operations: `[{"op":"add","value":{"execArgv":["--import","MODULE"]}}]` },
  ];

  async function patch(resource: string, operations: string) {
    const body = `{"schemas":["${PATCH}"],"Operations":${operations.replaceAll("MODULE", module.replaceAll('"', '\\"'))}}`;
    const response = await fetch(`${server.url}/scim/v2${resource}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it.each(attacks)("$name: 400 invalidPath on Users and Groups, nothing written", async ({ operations }) => {
    const userBefore = (await scim(server, "GET", `/Users/${userId}`)).body;
    for (const resource of [`/Users/${userId}`, `/Groups/${groupId}`]) {
      const answer = await patch(resource, operations);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: "400", scimType: expect.stringMatching(/^(invalidPath|invalidValue|invalidSyntax)$/) });
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    expect((await scim(server, "GET", `/Users/${userId}`)).body).toEqual(userBefore);
  });

  it("an explicit __proto__ key in a JSON body is refused wherever it sits", async () => {
    const bodies = [
      `{"schemas":["${PATCH}"],"Operations":[{"op":"add","value":{"__proto__":{"execArgv":["--import","${module.replaceAll('"', '\\"')}"]}}}]}`,
      `{"schemas":["${PATCH}"],"Operations":[{"op":"add","path":"displayName","value":"x","__proto__":{"polluted":"yes"}}]}`,
      `{"__proto__":{"polluted":"yes"},"schemas":["${PATCH}"],"Operations":[]}`,
      `{"schemas":["${PATCH}"],"Operations":[{"op":"add","value":{"\\u005f_proto__":{"polluted":"yes"}}}]}`,
    ];
    for (const body of bodies) {
      const response = await fetch(`${server.url}/scim/v2/Users/${userId}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: "400", detail: expect.stringMatching(/não permitid/) });
    }
  });

  it("afterwards no page carries an injected header and no worker ran the attacker's module", async () => {
    const page = await fetch(`${server.url}/auth`, { redirect: "manual" });
    expect(page.headers.get("refresh")).toBeNull();
    // Every audit export starts a worker thread: the place where a polluted execArgv ran.
    const csv = await fetch(`${server.url}/api/audit-logs/export.csv`, { headers: { cookie: `b1_session=${admin.token}` } });
    expect(csv.status).toBe(200);
    await csv.text();
    expect(fs.existsSync(marker)).toBe(false);
    // The process is alive and answers.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
