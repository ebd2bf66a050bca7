import fs from "node:fs";
import { groupKey } from "../../../src/lib/search/bundles";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../../src/lib/routes";
import { listFiles } from "../../../src/lib/server/platform/files";
import { createCustomRole, assignRoleByEmail } from "../../../src/lib/server/admin/roles";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

/** A phrase that exists only on /comite-ia (lider/admin). */
const COMMITTEE_ONLY = "Espinha dorsal central";
const PUBLIC_PHRASE = "Produto Mínimo Viável";

let server: RunningServer;
const who: Record<string, TestUser> = {};

/** The addresses the gate serves a bundle's files at: the base under /pagefind/, a gated page's group under /pagefind/grupos/<key>/. */
function bundleFiles(bundle: string): string[] {
  const root = path.join("dist/search", bundle, "pagefind");
  const prefix = bundle === "base" ? "/pagefind/" : `/pagefind/grupos/${bundle}/`;
  return listFiles(root).map((full) => prefix + path.relative(root, full).split(path.sep).join("/"));
}

async function fetchAs(user: TestUser | null, file: string) {
  return fetch(server.url + file, { headers: user ? { cookie: `b1_session=${user.token}` } : {} });
}

/** Downloads every file of a bundle as `user` and returns the decoded text of what was served. */
async function servedText(user: TestUser, files: string[]): Promise<string> {
  let text = "";
  for (const file of files) {
    const response = await fetchAs(user, file);
    if (response.status !== 200) continue;
    const bytes = Buffer.from(await response.arrayBuffer());
    text += /\.pf_(fragment|index|meta|filter)$/.test(file) ? zlib.gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
  }
  return text;
}

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["visualizador", "lider", "admin"]) who[role] = await createTestUser(server.db, [role]);
  await createCustomRole(server.db, { name: "convidado-comite", description: "", pagePaths: ["/comite-ia"] });
  who.custom = await createTestUser(server.db, []);
  await assignRoleByEmail(server.db, who.custom.email, "convidado-comite");
  await createCustomRole(server.db, { name: "auditor", description: "", pagePaths: ["/audit-logs"] });
  who.auditor = await createTestUser(server.db, []);
  await assignRoleByEmail(server.db, who.auditor.email, "auditor");
});
afterAll(() => server?.stop());

describe("search index access", () => {
  const everyFile = () => [...new Set(fs.readdirSync("dist/search").flatMap(bundleFiles))];

  it("gives anonymous visitors no index file at all", async () => {
    for (const file of everyFile().slice(0, 20)) expect((await fetchAs(null, file)).status, file).toBe(401);
  });

  // Every file of every bundle (hundreds of requests, each decompressed): its own budget on a busy machine.
  it("never serves a visualizador any fragment of /comite-ia, whatever file they ask for", { timeout: 60_000 }, async () => {
    const text = await servedText(who.visualizador!, everyFile());
    expect(text).toContain(PUBLIC_PHRASE);
    expect(text).not.toContain(COMMITTEE_ONLY);
    const onlyInCommittee = bundleFiles("comite-ia").filter((file) => !bundleFiles("base").includes(file));
    expect(onlyInCommittee.length).toBeGreaterThan(0);
    for (const file of onlyInCommittee) expect((await fetchAs(who.visualizador!, file)).status, file).toBe(404);
  });

  it("serves lider, admin and a custom role granted /comite-ia the bundle with it", async () => {
    for (const user of [who.lider!, who.admin!, who.custom!]) {
      expect(await servedText(user, bundleFiles("comite-ia"))).toContain(COMMITTEE_ONLY);
    }
  });

  it("gives a custom role without that grant the base bundle only", async () => {
    expect(await servedText(who.auditor!, everyFile())).not.toContain(COMMITTEE_ONLY);
  });

  it("indexes every word a reader sees and no chrome: the home page, all trail phases; no back link, previous/next, feedback form or visitor block", () => {
    const text = (bundle: string) =>
      listFiles(path.join("dist/search", bundle, "pagefind", "fragment"))
        .map((file) => {
          const raw = zlib.gunzipSync(fs.readFileSync(file));
          return (JSON.parse(raw.subarray(raw.indexOf("{")).toString("utf8")) as { content: string }).content;
        })
        .join("\n");
    const base = text("base");
    for (const chrome of [
      "Voltar",
      "Anterior",
      "Próxima",
      "Esta página ajudou",
      "Carregando sua trilha",
      "Acesso Restrito",
      "Cadastrar-se",
    ])
      expect(base, chrome).not.toContain(chrome);
    // The home page's teaser of /comite-ia is for those who may open it: not in the index everyone reads.
    expect(text("_inicio")).not.toMatch(/Comitê de IA/);
    expect(text("_inicio")).toContain("Nossos valores");
    const trail = text("trilha-interativa");
    for (const phase of ["Ideação", "Discovery", "Planejamento", "Pré-execução", "MVP / PoC", "Documentação", "Go Live", "Sustentação"])
      expect(trail, phase).toContain(`${phase}. Fase`);
    expect(trail).toContain("Os usuários têm um manual para as tarefas principais?");
  });

  it("builds the base bundle, an empty one and one per searchable page (k + 2), not one per access set", () => {
    const file = (routePath: string) => `dist/pages${routePath === "/" ? "" : routePath}/index.html`;
    const searchable = ROUTES.filter((route) => fs.existsSync(file(route.path)))
      .filter((route) => fs.readFileSync(file(route.path), "utf8").includes("data-pagefind-body"))
      .map((route) => groupKey(route.path));
    // The home page is searchable too, under a bundle name no route gives.
    expect(searchable).toContain("_inicio");
    expect(fs.readdirSync("dist/search").sort()).toEqual(["base", "_vazio", "indice.json", ...searchable].sort());
  });

  it("lists in /pagefind/grupos.json exactly the groups each person may read", async () => {
    const groups = async (user: TestUser) => (await (await fetchAs(user, "/pagefind/grupos.json")).json()) as string[];
    expect(await groups(who.visualizador!)).toEqual([]);
    expect(await groups(who.lider!)).toContain("comite-ia");
    expect(await groups(who.custom!)).toEqual(["comite-ia"]);
    expect(await groups(who.auditor!)).toEqual([]);
    expect((await fetchAs(null, "/pagefind/grupos.json")).status).toBe(401);
  });

  it("keeps the index out of the public folder", () => {
    expect(fs.existsSync("dist/client/pagefind")).toBe(false);
  });
});
