/**
 * Directory creates in parallel, both engines: creates of the same person (the same address, or
 * the same external id) give one 201 and 409 for the rest; creates of different people all
 * succeed and the audit chain still verifies; a sign-up and a directory create of one address at
 * once leave one account and no 5xx (the address check and the write stay one step).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import { verifyAuditChain } from "../../../src/lib/server/audit/verify.ts";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

describe("SCIM creates in parallel", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN, RATE_LIMIT_MULTIPLIER: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const create = (userName: string, externalId: string) =>
    scim(server, "POST", "/Users", { schemas: [USER], userName, externalId, active: true });

  it("the same address under different external ids: one 201, the rest 409, one account", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => create("mesmo-email@b1.example.com", `ext-email-${n}`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await server.db.select({ id: users.id }).from(users).where(eq(users.email, "mesmo-email@b1.example.com"))).toHaveLength(1);
  });

  it("the same external id under different addresses (one in capitals): one 201, the rest 409, one account", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        create(n === 0 ? "MESMO-EXT-0@B1.EXAMPLE.COM" : `mesmo-ext-${n}@b1.example.com`, "ext-compartilhado"),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await server.db.select({ id: users.id }).from(users).where(eq(users.externalId, "ext-compartilhado"))).toHaveLength(1);
  });

  it("different people at once: every create is 201, each account once, and the audit chain verifies", async () => {
    const emails = Array.from({ length: 24 }, (_, n) => `pessoa-paralela-${n}@b1.example.com`);
    const answers = await Promise.all(emails.map((email, n) => create(email, `ext-paralela-${n}`)));
    expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 201));
    expect(await server.db.select({ id: users.id }).from(users).where(inArray(users.email, emails))).toHaveLength(emails.length);
    const chain = await verifyAuditChain(server.db, async () => {}, null);
    expect(chain.ok, JSON.stringify(chain)).toBe(true);
  });

  it("list pages report the same total whether full, the last one, past the end or empty (count=0)", async () => {
    const all = await scim(server, "GET", "/Users?count=0");
    const total = all.body!.totalResults as number;
    expect(total).toBeGreaterThan(20);
    const ids: string[] = [];
    for (let startIndex = 1; startIndex <= total; startIndex += 7) {
      const page = await scim(server, "GET", `/Users?startIndex=${startIndex}&count=7`);
      expect(page.body).toMatchObject({ totalResults: total, startIndex, itemsPerPage: Math.min(7, total - startIndex + 1) });
      ids.push(...(page.body!.Resources as { id: string }[]).map((resource) => resource.id));
    }
    expect(new Set(ids).size).toBe(total);
    const past = await scim(server, "GET", `/Users?startIndex=${total + 5}&count=7`);
    expect(past.body).toMatchObject({ totalResults: total, itemsPerPage: 0 });
    const lookup = await scim(server, "GET", '/Users?filter=userName eq "pessoa-paralela-3@b1.example.com"&startIndex=2');
    expect(lookup.body).toMatchObject({ totalResults: 1, itemsPerPage: 0 });
  });

  it("a sign-up and a directory create of the same address at once: one account, never a 5xx", async () => {
    const emails = Array.from({ length: 4 }, (_, n) => `corrida-cadastro-${n}@b1.example.com`);
    const signUp = (email: string) =>
      fetch(`${server.url}/api/auth/sign-up`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ fullName: "Pessoa Corrida", email, password: "Senha@Corrida1", confirmPassword: "Senha@Corrida1" }),
      });
    const answers = await Promise.all(emails.flatMap((email, n) => [signUp(email), create(email, `ext-corrida-${n}`)]));
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    for (const [n, email] of emails.entries()) {
      const accounts = await server.db
        .select({ provisionedAt: users.provisionedAt, externalId: users.externalId })
        .from(users)
        .where(eq(users.email, email));
      expect(accounts).toHaveLength(1);
      // The directory's create either made the account (201) or found the sign-up's and answered 409.
      const directory = answers[n * 2 + 1] as { status: number };
      expect([201, 409]).toContain(directory.status);
      expect(accounts[0]!.externalId === `ext-corrida-${n}`).toBe(directory.status === 201);
    }
  });
});
