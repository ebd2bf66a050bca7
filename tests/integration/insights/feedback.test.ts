/**
 * 'Esta página ajudou?' over HTTP against the built server: one changeable vote per person, page and
 * version; an anonymous comment carries no account id; refusals (unknown page or version, a page the
 * person may not open, bad input, wrong origin, no session, over the rate) store nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsComments, insightsVotes } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let version: string;
const who: Record<string, TestUser> = {};

function vote(user: TestUser | null, body: unknown, origin: string | null = null, raw?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", origin: origin ?? server.url };
  if (user) headers.cookie = `b1_session=${user.token}`;
  return fetch(`${server.url}/api/opiniao`, { method: "POST", headers, body: raw ?? JSON.stringify(body) });
}

async function ownVote(user: TestUser, page = "/faq", at = version) {
  const response = await fetch(`${server.url}/api/opiniao?pagina=${encodeURIComponent(page)}&versao=${encodeURIComponent(at)}`, {
    headers: { cookie: `b1_session=${user.token}` },
  });
  return { status: response.status, body: (await response.json()) as { voto?: unknown; error?: string } };
}

const stored = async () => ({
  votes: await server.db.select().from(insightsVotes),
  comments: await server.db.select().from(insightsComments),
});

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["visualizador", "lider"]) who[role] = await createTestUser(server.db, [role]);
  who.parallel = await createTestUser(server.db, ["visualizador"], "paralelo");
  who.rate = await createTestUser(server.db, ["visualizador"], "limite");
  who.bad = await createTestUser(server.db, ["visualizador"], "invalido");
  const html = await (await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${who.visualizador!.token}` } })).text();
  version = /data-opiniao-versao="([^"]+)"/.exec(html)![1]!;
});
afterAll(async () => server?.stop());

describe("feedback vote", () => {
  it("records one vote per person, page and version, changeable, found again without naming the account", async () => {
    const viewer = who.visualizador!;
    expect(await ownVote(viewer)).toEqual({ status: 200, body: { voto: null } });
    expect((await vote(viewer, { pagina: "/faq", versao: version, ajudou: true })).status).toBe(200);
    expect((await ownVote(viewer)).body).toEqual({ voto: { ajudou: true, motivo: null } });
    const changed = await vote(viewer, {
      pagina: "/faq",
      versao: version,
      ajudou: false,
      motivo: "confusa",
      comentario: "  Não entendi o passo 3.  ",
    });
    expect(changed.status).toBe(200);
    expect((await ownVote(viewer)).body).toEqual({ voto: { ajudou: false, motivo: "confusa" } });
    const { votes, comments } = await stored();
    expect(votes).toHaveLength(1);
    expect(votes[0]).toMatchObject({ page: "/faq", version, helpful: 0, reason: "confusa" });
    // The anonymous comment: no account id in any column of either table.
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ body: "Não entendi o passo 3.", userId: null, status: "nova", reason: "confusa", version });
    expect(JSON.stringify({ votes, comments })).not.toContain(viewer.id);
    expect(JSON.stringify({ votes, comments })).not.toContain(viewer.email);
  });

  it("links the comment to the account only when the person asks to be contacted", async () => {
    const leader = who.lider!;
    const answer = await vote(leader, {
      pagina: "/faq",
      versao: version,
      ajudou: false,
      motivo: "outro",
      comentario: "Falar comigo",
      contato: true,
    });
    expect(answer.status).toBe(200);
    const { comments } = await stored();
    expect(comments.find((comment) => comment.body === "Falar comigo")?.userId).toBe(leader.id);
  });

  it("refuses a page the person may not open exactly like an unknown page, and an old version", async () => {
    const viewer = who.bad!;
    const before = await stored();
    const hidden = await vote(viewer, { pagina: "/comite-ia", versao: version, ajudou: true });
    const unknown = await vote(viewer, { pagina: "/nao-existe", versao: version, ajudou: true });
    const notContent = await vote(viewer, { pagina: "/leitura", versao: version, ajudou: true });
    expect(hidden.status).toBe(404);
    const hiddenBody = await hidden.json();
    expect(hiddenBody).toEqual(await unknown.json());
    expect(hiddenBody).toEqual({ error: "Página não encontrada." });
    expect(notContent.status).toBe(404);
    expect((await ownVote(viewer, "/comite-ia")).status).toBe(404);
    const old = await vote(viewer, { pagina: "/faq", versao: "v0", ajudou: true });
    expect(old.status).toBe(409);
    expect(((await old.json()) as { error: string }).error).toMatch(/recarregue/);
    expect(await stored()).toEqual(before);
  });

  it("refuses bad input in Portuguese with a 4xx and stores nothing", async () => {
    const viewer = who.bad!;
    const before = await stored();
    const base = { pagina: "/faq", versao: version, ajudou: false };
    const cases: [string, Response][] = [
      ["long comment", await vote(viewer, { ...base, comentario: "a".repeat(1001) })],
      ["control char", await vote(viewer, { ...base, comentario: "olá\u0007" })],
      ["bidi override", await vote(viewer, { ...base, comentario: "abc\u202Edef" })],
      ["NUL", await vote(viewer, { ...base, comentario: "a\u0000b" })],
      ["unknown reason", await vote(viewer, { ...base, motivo: "raiva" })],
      ["unknown field", await vote(viewer, { ...base, extra: 1 })],
      ["__proto__", await vote(viewer, null, null, `{"pagina":"/faq","versao":"${version}","ajudou":true,"__proto__":{"x":1}}`)],
      [
        "constructor",
        await vote(viewer, null, null, `{"pagina":"/faq","versao":"${version}","ajudou":true,"constructor":{"prototype":{"x":1}}}`),
      ],
      [
        "deep nesting",
        await vote(viewer, null, null, `{"pagina":"/faq","versao":"${version}","ajudou":${"[".repeat(5000)}${"]".repeat(5000)}}`),
      ],
      ["huge number", await vote(viewer, { ...base, ajudou: 1e308 })],
      ["string vote", await vote(viewer, { ...base, ajudou: "sim" })],
      ["malformed", await vote(viewer, null, null, "{")],
      ["64 KiB + 1", await vote(viewer, null, null, `{"pagina":"/faq","comentario":"${"a".repeat(64 * 1024)}"}`)],
      ["10 MB", await vote(viewer, null, null, "a".repeat(10 * 1024 * 1024))],
      ["confusable page", await vote(viewer, { ...base, pagina: "/fаq" })],
      ["traversal", await vote(viewer, { ...base, pagina: "/../faq" })],
    ];
    for (const [name, answer] of cases) {
      expect(answer.status, name).toBeGreaterThanOrEqual(400);
      expect(answer.status, name).toBeLessThan(500);
      const body = (await answer.json()) as { error: string };
      expect(body.error, name).toMatch(/[a-zç]/i);
    }
    expect((await vote(viewer, base, "https://evil.example")).status).toBe(403);
    expect((await vote(null, base)).status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it("the same vote sent 50 times at once is one row", async () => {
    const person = who.parallel!;
    const before = (await stored()).votes.length;
    const answers = await Promise.all(Array.from({ length: 50 }, () => vote(person, { pagina: "/faq", versao: version, ajudou: true })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect((await stored()).votes).toHaveLength(before + 1);
  });

  it("refuses past 60 votes per account in 15 minutes", async () => {
    const person = who.rate!;
    const statuses: number[] = [];
    for (let index = 0; index < 61; index++)
      statuses.push((await vote(person, { pagina: "/faq", versao: version, ajudou: index % 2 === 0 })).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
