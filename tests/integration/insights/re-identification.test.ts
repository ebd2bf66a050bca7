/**
 * A re-identification attempt against Insights' pseudonyms, as an operator holding the database (or a
 * backup of it) but not the servers' environment would try it (issue 62): every keyed hash is
 * recomputed for every account, page, version and query with every secret the database holds, and
 * nobody is named; the search seen by 2 people is nowhere in clear (rows, the SQLite file, the log);
 * the feedback and search-beacon paths leave no account id in rate_limits, the request log or any row.
 * A control shows the attack itself works: with INSIGHTS_KEY in hand it names the voter. Both engines.
 */
import { createHash, createHmac } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insightsComments,
  insightsKeys,
  insightsQueries,
  insightsQueryPeople,
  insightsSearches,
  insightsVotes,
  rateLimits,
  users,
} from "../../../db/schema/index";
import { closeDatabase, connectDatabase, type Db } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

/** The query only two people searched: below the threshold, it must be stored nowhere in clear. */
const RARE = "demissao sigilosa do gerente";
const SHOWN = "canvas de valor";

let server: RunningServer;
/** The database after the server stopped: what a backup holds. */
let db: Db;
let version: string;
const people: TestUser[] = [];

const post = (user: TestUser, urlPath: string, body: unknown) =>
  fetch(`${server.url}${urlPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, cookie: `b1_session=${user.token}` },
    body: JSON.stringify(body),
  });

/** The old construction (keys.ts before issue 62): SHA-256 over the key in hex, NUL, the text. */
const prefixHash = (key: Buffer, text: string) =>
  createHash("sha256")
    .update(`${key.toString("hex")}\u0000${text}`)
    .digest();
const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();

/** Every way a stored pseudonym could be spelled from a 32-byte digest. */
const spellings = (digest: Buffer) => [
  digest.toString("base64url"),
  digest.toString("base64url").slice(0, 22),
  digest.toString("hex"),
  `#${digest.toString("base64url")}`,
];

beforeAll(async () => {
  server = await startBuiltServer();
  for (let index = 0; index < 4; index++) people.push(await createTestUser(server.db, ["visualizador"], `reid-${index}`));
  const html = await (await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${people[0]!.token}` } })).text();
  version = /data-opiniao-versao="([^"]+)"/.exec(html)![1]!;
  const [a, b, c, d] = people as [TestUser, TestUser, TestUser, TestUser];
  // An anonymous comment, a vote with a reason, a plain vote.
  expect(
    (
      await post(a, "/api/opiniao", {
        pagina: "/faq",
        versao: version,
        ajudou: false,
        motivo: "confusa",
        comentario: "Não entendi nada",
        contato: false,
      })
    ).status,
  ).toBe(200);
  expect((await post(b, "/api/opiniao", { pagina: "/faq", versao: version, ajudou: true })).status).toBe(200);
  expect(
    (
      await fetch(`${server.url}/api/opiniao?pagina=%2Ffaq&versao=${encodeURIComponent(version)}`, {
        headers: { cookie: `b1_session=${c.token}` },
      })
    ).status,
  ).toBe(200);
  // Two people search RARE, three search SHOWN.
  for (const person of [a, d]) expect((await post(person, "/api/busca", { consulta: RARE, resultados: 0, aberto: null })).status).toBe(204);
  for (const person of [a, b, c])
    expect((await post(person, "/api/busca", { consulta: SHOWN, resultados: 1, aberto: 1 })).status).toBe(204);
  // SIGTERM flushes what the instance counted; then the database is read as a backup would hold it.
  await server.stop({ keepData: true });
  db = connectDatabase(server.databaseEnv.DATABASE_URL ?? server.databaseEnv.DATABASE_PATH!);
}, 60_000);
afterAll(async () => {
  if (db) await closeDatabase(db);
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

async function dump() {
  return {
    users: await db.select({ id: users.id, email: users.email }).from(users),
    keys: await db.select().from(insightsKeys),
    votes: await db.select().from(insightsVotes),
    comments: await db.select().from(insightsComments),
    queries: await db.select().from(insightsQueries),
    queryPeople: await db.select().from(insightsQueryPeople),
    searches: await db.select().from(insightsSearches),
    rateLimits: await db.select().from(rateLimits),
  };
}

describe("re-identification from a copy of the database", () => {
  it("recomputing every pseudonym with every secret the database holds names nobody", async () => {
    const backup = await dump();
    expect(backup.votes).toHaveLength(2);
    expect(backup.comments).toHaveLength(1);
    expect(backup.comments[0]!.userId).toBeNull();
    const pseudonyms = new Set<string>([
      ...backup.votes.map((row) => row.voteKey),
      ...backup.queryPeople.flatMap((row) => [row.person, row.person.replace(/^[^:]*:/, "")]),
      ...backup.queries.map((row) => row.query),
    ]);
    const secrets = backup.keys.map((row) => Buffer.from(row.secret, "hex"));
    expect(secrets.length).toBeGreaterThan(0);
    const texts: string[] = [];
    for (const user of backup.users) {
      texts.push(`${user.id}\u0000/faq\u0000${version}`);
      for (const query of [RARE, SHOWN]) texts.push(`${user.id}\u0000${query}`);
    }
    texts.push(RARE, SHOWN);
    const named: string[] = [];
    for (const secret of secrets) {
      for (const text of texts) {
        for (const digest of [prefixHash(secret, text), hmac(secret, text)]) {
          if (spellings(digest).some((spelling) => pseudonyms.has(spelling))) named.push(text.split("\u0000")[0]!);
        }
      }
    }
    expect(named).toEqual([]);

    // Control: the same attack with the servers' INSIGHTS_KEY (never in the database) does name the voter, so it is a real attack.
    const master = Buffer.from(process.env.INSIGHTS_KEY!, "hex");
    const voteSalt = backup.keys.find((row) => row.name.startsWith("voto:"))!;
    const voteKey = createHmac("sha256", master).update(`${voteSalt.name}\u0000`).update(Buffer.from(voteSalt.secret, "hex")).digest();
    const voters = backup.users.filter((user) =>
      pseudonyms.has(prefixHash(voteKey, `${user.id}\u0000/faq\u0000${version}`).toString("base64url")),
    );
    expect(voters.map((user) => user.id).sort()).toEqual([people[0]!.id, people[1]!.id].sort());
  });

  it("no account id, e-mail or below-threshold search in any Insights row or rate limit; the shown query's text only at the threshold", async () => {
    const backup = await dump();
    const rows = JSON.stringify([
      backup.votes,
      backup.comments,
      backup.queries,
      backup.queryPeople,
      backup.searches,
      backup.rateLimits,
      backup.keys,
    ]);
    for (const person of people) {
      expect(rows).not.toContain(person.id);
      expect(rows).not.toContain(person.email);
    }
    expect(rows).not.toContain(RARE);
    expect(backup.queries.map((row) => row.text).sort()).toEqual([SHOWN, null].sort());
    expect(backup.rateLimits.filter((row) => /opiniao|feedback|busca/.test(row.key))).toEqual([]);
    // A salt's row keeps its creation day, not the second the quarter's first vote or search made it.
    for (const key of backup.keys) expect(Number(key.createdAt) % 86_400_000).toBe(0);
  });

  it("the SQLite file and its WAL hold the below-threshold search nowhere, not even in freed pages", () => {
    if (onPostgres) return;
    const file = server.databaseEnv.DATABASE_PATH!;
    for (const candidate of [file, `${file}-wal`]) {
      if (!fs.existsSync(candidate)) continue;
      const bytes = fs.readFileSync(candidate);
      expect(bytes.includes(Buffer.from(RARE)), path.basename(candidate)).toBe(false);
    }
  });

  it("the request log lines of /api/opiniao and /api/busca name no account, and no search text is logged", () => {
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes("/api/opiniao") || line.includes("/api/busca"));
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) for (const person of people) expect(line).not.toContain(person.id);
    expect(server.output()).not.toContain(RARE);
  });
});
