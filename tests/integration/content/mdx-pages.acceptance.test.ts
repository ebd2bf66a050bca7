/**
 * Acceptance of pages written as MDX files, end to end on a copy of the project: one new file with
 * access [lider] becomes a route the gate guards, a nav entry, a search hit only for those who may
 * read it, and a page the admin checklist lists and can grant; a broken link or a bad frontmatter
 * stops `content:check` and the build; `astro dev` picks up a YAML edit without a restart.
 * Slow (it builds the whole site once): about one to three minutes.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, copyProject } from "../../../scripts/dev/project-copy";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const SLUG = "pagina-aceitacao-lider";
const PHRASE = "Quintessência zetaflúor aceitação";
const GUIDE = "visao-de-produto";

let project: string;
let server: RunningServer;
const who: Record<string, TestUser> = {};

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: project, encoding: "utf8", env: cleanEnv() });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function writePage(name: string, text: string) {
  fs.writeFileSync(path.join(project, "content", "paginas", name), text);
}

async function get(pathname: string, user: TestUser | null, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (user) headers.set("cookie", `b1_session=${user.token}`);
  return fetch(server.url + pathname, { redirect: "manual", ...init, headers });
}

/** Decoded text of every file of a search bundle, fetched as `user` from where the gate serves it. */
async function searchText(user: TestUser, bundle: string): Promise<{ text: string; statuses: number[] }> {
  const root = path.join(project, "dist", "search", bundle, "pagefind");
  const prefix = bundle === "base" ? "/pagefind/" : `/pagefind/grupos/${bundle}/`;
  let text = "";
  const statuses: number[] = [];
  for (const file of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!file.isFile()) continue;
    const rel = path.relative(root, path.join(file.parentPath, file.name)).split(path.sep).join("/");
    const response = await get(prefix + rel, user);
    statuses.push(response.status);
    if (response.status !== 200) continue;
    const bytes = Buffer.from(await response.arrayBuffer());
    text += /\.pf_(fragment|index|meta|filter)$/.test(rel) ? zlib.gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
  }
  return { text, statuses };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  project = copyProject("b1-mdx-");
  writePage(
    `${SLUG}.mdx`,
    [
      "---",
      "title: Página dos Líderes",
      "description: Uma página de teste só para líderes.",
      "nav: header",
      "navLabel: Líderes",
      "access: [lider]",
      "---",
      "",
      `${PHRASE}: texto que só um líder pode ler e encontrar na busca.`,
      "",
      '<Aviso tipo="dica">Veja também as [etapas](/etapas-processo).</Aviso>',
      "",
    ].join("\n"),
  );
  fs.writeFileSync(path.join(project, "content", "guias", `${GUIDE}.mdx`), "Texto de teste do guia, escrito só nesta cópia.\n");
  const build = run("npm", ["run", "build"]);
  if (build.status !== 0) throw new Error(`build falhou:\n${build.output.slice(-4000)}`);
  // Generous start-up time: this file runs beside the rest of the suite on a busy machine.
  server = await startBuiltServer({}, { cwd: project, startTimeoutMs: 90_000 });
  for (const role of ["visualizador", "lider", "admin"]) who[role] = await createTestUser(server.db, [role]);
  who.none = await createTestUser(server.db, []);
}, 420_000);

afterAll(async () => {
  await server?.stop();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe("a page added as content/paginas/<slug>.mdx with access [lider]", () => {
  it("sends anonymous visitors to /auth and denies a visualizador", async () => {
    const anonymous = await get(`/${SLUG}`, null);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe(`/auth?next=${encodeURIComponent(`/${SLUG}`)}`);
    const visualizador = await get(`/${SLUG}`, who.visualizador!);
    expect(visualizador.status).toBe(302);
    expect(visualizador.headers.get("location")).toBe(`/acesso-negado?pagina=${encodeURIComponent(`/${SLUG}`)}`);
    expect(await (await get("/home-metodologia", who.visualizador!)).text()).not.toContain(`href="/${SLUG}"`);
  });

  it("opens for a lider, with its nav entry and the 'Atualizado em' line", async () => {
    const page = await get(`/${SLUG}`, who.lider!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(PHRASE);
    expect(html).toMatch(/Atualizado em <time[^>]*>\d{1,2} de \w+ de \d{4}<\/time>/);
    expect(html).not.toContain("Editar esta página");
    const home = await (await get("/home-metodologia", who.lider!)).text();
    expect(home).toMatch(new RegExp(`<a href="/${SLUG}"[^>]*>\\s*Líderes\\s*</a>`));
  });

  it("is found by search only by those who may open it", async () => {
    const groupsOf = async (user: TestUser) => (await (await get("/pagefind/grupos.json", user)).json()) as string[];
    expect(await groupsOf(who.visualizador!)).not.toContain(SLUG);
    const denied = await searchText(who.visualizador!, SLUG);
    expect(denied.statuses.every((status) => status === 404)).toBe(true);
    expect((await searchText(who.visualizador!, "base")).text).not.toContain("Quintessência");

    expect(await groupsOf(who.lider!)).toContain(SLUG);
    expect((await searchText(who.lider!, SLUG)).text).toContain("Quintessência");
  });

  it("is listed in the admin checklist, and granting it to a custom role opens it for that role's holder", async () => {
    const headers = { cookie: `b1_session=${who.admin!.token}`, origin: server.url, "content-type": "application/json" };
    const listed = (await (await fetch(`${server.url}/api/admin/roles`, { headers })).json()) as {
      pages: { path: string; name: string; kind: string }[];
    };
    expect(listed.pages).toContainEqual(expect.objectContaining({ path: `/${SLUG}`, name: "Página dos Líderes", kind: "grantable" }));

    const created = await fetch(`${server.url}/api/admin/roles`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "leitores-lideres", description: "Leem a página dos líderes", pages: [`/${SLUG}`] }),
    });
    expect(created.status).toBe(201);
    const holder = await createTestUser(server.db, ["leitores-lideres"]);
    expect((await get(`/${SLUG}`, holder)).status).toBe(200);
    expect((await get(`/${SLUG}`, who.none!)).status).toBe(302);
  });

  it("opens a playbook guide's own page from 'Ler tudo' when content/guias/<id>.mdx exists", async () => {
    const playbook = await (await get("/playbook-produtos", who.visualizador!)).text();
    expect(playbook).toContain(`href="/guias/${GUIDE}"`);
    const guide = await get(`/guias/${GUIDE}`, who.visualizador!);
    expect(guide.status).toBe(200);
    expect(await guide.text()).toContain("Texto de teste do guia");
    expect((await get(`/guias/${GUIDE}`, null)).status).toBe(302);
  });
});

describe("broken content stops content:check and the build", () => {
  const CASES = [
    {
      name: "a broken internal link",
      text: ["---", "title: Quebrada", "description: Link quebrado.", "access: signed-in", "---", "", "Veja [isto](/nao-existe).", ""],
      expected: "content/paginas/quebrada.mdx:7: link interno quebrado: /nao-existe não é uma página do portal",
    },
    {
      name: "a bad frontmatter",
      text: ["---", "title: Quebrada", "description: Perfil errado.", "access: [chefe]", "---", "", "Texto.", ""],
      expected: 'content/paginas/quebrada.mdx:4: campo "access"',
    },
    {
      name: "an unknown component",
      text: ["---", "title: Quebrada", "description: Componente errado.", "access: signed-in", "---", "", "<Banner>Oi</Banner>", ""],
      expected: "content/paginas/quebrada.mdx:7: componente desconhecido <Banner>",
    },
  ];

  for (const { name, text, expected } of CASES) {
    it(`refuses ${name}, naming file, line and field in Portuguese`, () => {
      writePage("quebrada.mdx", text.join("\n"));
      try {
        const check = run("npx", ["tsx", "scripts/content-check.ts"]);
        expect(check.status).toBe(1);
        expect(check.output).toContain(expected);
        const build = run("npx", ["astro", "build"]);
        expect(build.status).not.toBe(0);
        expect(build.output).toContain(expected);
      } finally {
        fs.rmSync(path.join(project, "content", "paginas", "quebrada.mdx"));
      }
    }, 120_000);
  }
});

describe("astro dev", () => {
  it("serves a YAML edit without a restart", async () => {
    const port = await freePort();
    const dev = spawn("npx", ["astro", "dev", "--port", String(port), "--host", "127.0.0.1"], {
      cwd: project,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let log = "";
    dev.stdout!.on("data", (chunk) => (log += chunk));
    dev.stderr!.on("data", (chunk) => (log += chunk));
    const faqFile = path.join(project, "content", "faq.yaml");
    const url = `http://127.0.0.1:${port}/faq`;
    const fetchFaq = async () => {
      try {
        return await (await fetch(url)).text();
      } catch {
        return "";
      }
    };
    /**
     * Whether /faq serves `text` within `timeoutMs`, asked by three requests in a row at a time: a request
     * in flight when Astro writes its store is what left the old text served for good (Astro's dev CSS
     * module of the page transformed the store's importers again outside Vite's module runner).
     */
    const servedSoon = async (text: string, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      let served = false;
      const ask = async () => {
        while (!served && Date.now() < until) {
          if ((await fetchFaq()).includes(text)) served = true;
          else await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      await Promise.all([ask(), ask(), ask()]);
      return served;
    };
    try {
      await expect.poll(fetchFaq, { timeout: 90_000, interval: 1000 }).toContain("O que é a Metodologia B1?");
      // Saves in a row, each seen: a save announced twice to Astro's loader left the old text served for
      // good about one time in three (the dev server was never told the store changed again).
      const original = fs.readFileSync(faqFile, "utf8");
      for (const wording of [
        "O que é, afinal, a Metodologia B1?",
        "O que é, enfim, a Metodologia B1?",
        "O que é, de fato, a Metodologia B1?",
        "O que é, na prática, a Metodologia B1?",
        "O que é, em resumo, a Metodologia B1?",
      ]) {
        fs.writeFileSync(faqFile, original.replace("O que é a Metodologia B1?", wording));
        expect(await servedSoon(wording, 30_000), `/faq não mostrou "${wording}" em 30 s`).toBe(true);
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- astro dev ---\n${log.slice(-3000)}`);
    } finally {
      process.kill(-dev.pid!, "SIGTERM");
    }
  }, 150_000);
});
