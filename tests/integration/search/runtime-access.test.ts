/**
 * Search follows limited roles and the admin panel's restrictions at the next request: every search
 * file a limited person can fetch (every file name of every bundle, at the primary address and at
 * every group address) is decoded and searched for a word that exists only on a page they may not
 * open: 0 hits, before and after a change. A word of a page they may open is found (the check sees).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFiles } from "../../../src/lib/server/platform/files";
import { assignRoleByEmail, createCustomRole } from "../../../src/lib/server/admin/roles";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { mergeTerms, nearestWords, normalizePhrase, type Terms, type TermsFile } from "../../../src/lib/search/query";
import { normalizeForSearch } from "../../../src/lib/search/text";

let server: RunningServer;
let partner: TestUser;
let admin: TestUser;
const GRANTED = ["/5ps", "/glossario"];

/** Lower-case words of a prerendered page's searchable body. */
function wordsOf(route: string): Set<string> {
  const html = fs.readFileSync(path.join("dist/pages", route === "/" ? "" : route.slice(1), "index.html"), "utf8");
  const body = html.slice(html.indexOf("data-pagefind-body"));
  const text = body.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ").replace(/<[^>]+>/g, " ");
  return new Set(text.toLowerCase().match(/[a-zà-ú]{9,}/g) ?? []);
}

/** A word on `route` that no other searchable page and no page the partner holds has. */
function wordOnlyOn(route: string): string {
  const others = listFiles("dist/pages")
    .filter((file) => file.endsWith("index.html") && fs.readFileSync(file, "utf8").includes("data-pagefind-body"))
    .map((file) => "/" + path.relative("dist/pages", path.dirname(file)).split(path.sep).join("/"))
    .filter((other) => other !== route);
  const elsewhere = new Set(others.flatMap((other) => [...wordsOf(other)]));
  const word = [...wordsOf(route)].find((candidate) => !elsewhere.has(candidate));
  if (!word) throw new Error(`nenhuma palavra exclusiva de ${route}`);
  return word;
}

/** Every address a search file could be fetched at: each bundle's file names as the primary and under each group. */
function everySearchAddress(): string[] {
  const bundles = fs.readdirSync("dist/search").filter((key) => fs.existsSync(path.join("dist/search", key, "pagefind")));
  const names = new Set(
    bundles.flatMap((bundle) => {
      const root = path.join("dist/search", bundle, "pagefind");
      return listFiles(root).map((full) => path.relative(root, full).split(path.sep).join("/"));
    }),
  );
  const addresses = ["/pagefind/grupos.json"];
  for (const name of names) {
    addresses.push(`/pagefind/${name}`);
    for (const bundle of bundles) addresses.push(`/pagefind/grupos/${bundle}/${name}`);
  }
  return addresses;
}

/** The decoded text of every search file the user is served. */
async function servedText(user: TestUser): Promise<string> {
  const texts = await Promise.all(
    everySearchAddress().map(async (address) => {
      const response = await fetch(server.url + address, { headers: { cookie: `b1_session=${user.token}` } });
      if (response.status !== 200) return "";
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!/\.pf_(fragment|index|meta|filter)$/.test(address)) return bytes.toString("utf8");
      return zlib.gunzipSync(bytes).toString("utf8");
    }),
  );
  return texts.join("\n").toLowerCase();
}

async function restrict(pagePath: string, roles: string[] | null) {
  const headers = { cookie: `b1_session=${admin.token}`, origin: server.url, "content-type": "application/json" };
  const list = (await (await fetch(server.url + "/api/admin/page-access", { headers })).json()) as {
    pages: { path: string; version: number }[];
  };
  const version = list.pages.find((page) => page.path === pagePath)!.version;
  const response = await fetch(server.url + "/api/admin/page-access", {
    method: "PUT",
    headers,
    body: JSON.stringify({ path: pagePath, roles, version }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
  partner = await createTestUser(server.db, [], "parceiro");
  const created = await createCustomRole(server.db, { name: "parceiros", description: "", pagePaths: GRANTED, limited: true });
  if (!created.ok) throw new Error("perfil");
  expect(await assignRoleByEmail(server.db, partner.email, "parceiros")).toBe(true);
}, 60_000);
afterAll(() => server?.stop());

/**
 * The synonyms, vocabulary and page count a person's search dialog reads: /pagefind/termos.json and
 * /pagefind/vocabulario.json, which the gate merges over the bundles it serves them.
 */
async function servedTerms(user: TestUser): Promise<Terms> {
  const headers = { cookie: `b1_session=${user.token}` };
  const files = await Promise.all(
    ["termos.json", "vocabulario.json"].map(async (name) => {
      const response = await fetch(`${server.url}/pagefind/${name}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toContain("no-store");
      return (await response.json()) as TermsFile;
    }),
  );
  return mergeTerms(files);
}

/** The normalised searchable text of the pages `routes` (what a synonym's page words must come from). */
function textOf(routes: readonly string[]): string {
  return routes.map((route) => normalizePhrase([...wordsOf(route)].join(" ") + " " + plainText(route))).join(" \u0000 ");
}

function plainText(route: string): string {
  const html = fs.readFileSync(path.join("dist/pages", route === "/" ? "" : route.slice(1), "index.html"), "utf8");
  return html.slice(html.indexOf("data-pagefind-body")).replace(/<[^>]+>/g, " ");
}

describe("search follows runtime access", () => {
  it("a limited person's search files hold no word of a page they may not open, before and after a panel change", async () => {
    const faqOnly = wordOnlyOn("/faq");
    const glossaryOnly = wordOnlyOn("/glossario");
    const committeeOnly = wordOnlyOn("/comite-ia");

    const before = await servedText(partner);
    expect(before).toContain(glossaryOnly);
    expect(before).not.toContain(faqOnly);
    expect(before).not.toContain(committeeOnly);

    // The panel takes /glossario away from them and gives them /faq: the very next fetch follows.
    await restrict("/glossario", ["lider"]);
    await restrict("/faq", ["parceiros", "visualizador"]);
    const changed = performance.now();
    const after = await servedText(partner);
    const elapsed = performance.now() - changed;
    expect(after).not.toContain(glossaryOnly);
    expect(after).toContain(faqOnly);
    expect(after).not.toContain(committeeOnly);
    expect(elapsed).toBeLessThan(10_000);
  }, 60_000);

  it("a reader whose roles open every page keeps the one base bundle (first result no slower)", async () => {
    const reader = await createTestUser(server.db, ["visualizador"]);
    await restrict("/glossario", null);
    await restrict("/faq", null);
    const groups = (await (
      await fetch(server.url + "/pagefind/grupos.json", { headers: { cookie: `b1_session=${reader.token}` } })
    ).json()) as string[];
    expect(groups).toEqual([]);
    const text = await servedText(reader);
    expect(text).toContain(wordOnlyOn("/faq"));
  }, 60_000);

  it("typo corrections come only from the person's pages: a word only a restricted page has is never suggested", async () => {
    const committeeOnly = normalizeForSearch(wordOnlyOn("/comite-ia"));
    // One letter dropped from the middle: a one-letter typo of that word.
    const typo = committeeOnly.slice(0, 4) + committeeOnly.slice(5);
    const reader = await createTestUser(server.db, ["visualizador"]);
    const leader = await createTestUser(server.db, ["lider"]);
    for (const person of [partner, reader]) {
      const terms = await servedTerms(person);
      expect(terms.vocabulary.words.has(committeeOnly)).toBe(false);
      expect(nearestWords(typo, terms.vocabulary, 5)).not.toContain(committeeOnly);
    }
    // The check sees: someone who may open /comite-ia gets the word as the correction.
    expect(nearestWords(typo, (await servedTerms(leader)).vocabulary, 5)).toContain(committeeOnly);
  }, 60_000);

  it("every synonym a person receives points to words of pages they may open (partner and reader)", async () => {
    const reader = await createTestUser(server.db, ["visualizador"]);
    const manifest = JSON.parse(fs.readFileSync("dist/search/indice.json", "utf8")) as { base: string[] };
    const cases: [TestUser, string[]][] = [
      [partner, [...GRANTED, "/"]],
      [reader, manifest.base],
    ];
    for (const [person, pages] of cases) {
      const text = textOf(pages);
      const terms = await servedTerms(person);
      expect(terms.synonyms.length).toBeGreaterThan(0);
      for (const entry of terms.synonyms) for (const phrase of entry.pageWords) expect(` ${text} `, phrase).toContain(` ${phrase} `);
      expect(terms.pages).toBe(pages.length);
    }
  }, 60_000);

  it("the merged terms files hold under attack: no session, other methods, odd spellings, a 10 MB body, 50 at once", async () => {
    const committeeOnly = normalizeForSearch(wordOnlyOn("/comite-ia"));
    for (const name of ["termos.json", "vocabulario.json"]) expect((await fetch(`${server.url}/pagefind/${name}`)).status).toBe(401);
    const reader = await createTestUser(server.db, ["visualizador"]);
    const cookie = `b1_session=${reader.token}`;
    const spellings = [
      "/pagefind/grupos/comite-ia/vocabulario.json",
      "/pagefind/grupos/comite-ia/termos.json",
      "/pagefind/grupos/__proto__/termos.json",
      "/pagefind/grupos/constructor/vocabulario.json",
      "/pagefind/grupos/%2e%2e/vocabulario.json",
      "/pagefind/grupos/comite-ia%2Fvocabulario.json",
      "/pagefind//vocabulario.json",
      "/pagefind/vocabulario.json%00",
      "/PAGEFIND/grupos/comite-ia/vocabulario.json",
    ];
    for (const address of spellings) {
      const response = await fetch(server.url + address, { headers: { cookie } });
      expect(response.status, address).toBeLessThan(500);
      expect((await response.text()).toLowerCase(), address).not.toContain(committeeOnly);
    }
    const posted = await fetch(`${server.url}/pagefind/vocabulario.json`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: "x".repeat(10 * 1024 * 1024),
    }).catch(() => null);
    // Search files are read-only: a POST is 405 (it answered 200 with the file), whatever its size.
    if (posted) expect(posted.status).toBe(405);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${server.url}/pagefind/termos.json`, { method, headers: { cookie, origin: server.url } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
    const bodies = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const response = await fetch(`${server.url}/pagefind/vocabulario.json`, { headers: { cookie: `b1_session=${partner.token}` } });
        expect(response.status).toBe(200);
        return response.text();
      }),
    );
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]!.toLowerCase()).not.toContain(committeeOnly);
  }, 60_000);
});
