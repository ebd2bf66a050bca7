import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentHistory } from "../../../scripts/content/integration";
import { compareVersions, sentences } from "../../../src/lib/content/history-compare";
import type { PageHistory } from "../../../src/lib/content/page-history";
import { readPageHistorySettings } from "../../../src/lib/server/config/page-history";
import type { ContentPageEntry } from "../../../src/lib/content-manifest";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  delete process.env.HISTORY_HIDE_AUTHORS;
});

function repository() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-history-"));
  roots.push(root);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  git("init", "-q");
  git("config", "user.email", "editora@example.com");
  git("config", "user.name", "Editora Ana");
  fs.mkdirSync(path.join(root, "content/paginas"), { recursive: true });
  const commit = (file: string, text: string, message: string, date: string) => {
    fs.writeFileSync(path.join(root, file), text);
    git("add", ".");
    git("commit", "-q", "-m", message, `--date=${date}`);
  };
  return { root, git, commit };
}

const politica: ContentPageEntry = {
  slug: "politica",
  path: "/politica",
  title: "Política",
  description: "",
  nav: "none",
  order: 1,
  access: "signed-in",
  file: "content/paginas/politica.mdx",
};
const reading = { buildId: "x", pages: [] };
const page = (body: string) => `---\ntitle: Política\ndescription: d\n---\n\n${body}`;

describe("page history from git (issue 66)", () => {
  it("lists every content page's versions newest first, with author, date and the Novidade line or the section summary; comite-ia's words stay in its own history", () => {
    const { root, commit } = repository();
    commit(
      "content/paginas/politica.mdx",
      page("## Dados\n\nNunca cole dados. Sempre anonimize.\n"),
      "v1\n\nNovidade: Política publicada",
      "2026-01-01T10:00:00Z",
    );
    commit(
      "content/paginas/politica.mdx",
      page("## Dados\n\nNunca cole dados. Use só ferramentas aprovadas.\n\n## Novas regras\n\nLista.\n"),
      "edit",
      "2026-02-01T10:00:00Z",
    );
    commit(
      "content/committee.yaml",
      "members:\n  - name: Pessoa Secreta do Comitê\n    role: Coordenação de riscos\n",
      "committee",
      "2026-03-01T10:00:00Z",
    );
    const { history } = contentHistory(root, [politica], reading);
    expect(history.available).toBe(true);
    const own = history.pages.find((entry) => entry.path === "/politica")!;
    expect(own.versions.map(({ date, author, summary }) => ({ date, author, summary }))).toEqual([
      { date: "2026-02-01T10:00:00.000Z", author: "Editora Ana", summary: "Novo: Novas regras. Alterado: Dados." },
      { date: "2026-01-01T10:00:00.000Z", author: "Editora Ana", summary: "Política publicada" },
    ]);
    const [newest, oldest] = own.versions;
    const comparison = compareVersions(own, oldest!.id, newest!.id)!;
    expect(comparison.added.map((section) => section.title)).toEqual(["Novas regras"]);
    expect(comparison.changed[0]!.parts).toEqual([
      { kind: "same", text: "Nunca cole dados. " },
      { kind: "del", text: "Sempre anonimize." },
      { kind: "ins", text: "Use só ferramentas aprovadas." },
    ]);
    const committee = history.pages.find((entry) => entry.path === "/comite-ia")!;
    expect(committee.texts.join(" ")).toContain("Pessoa Secreta do Comitê");
    const elsewhere = JSON.stringify(history.pages.filter((entry) => entry.path !== "/comite-ia"));
    expect(elsewhere).not.toContain("Pessoa Secreta");
  });

  it("HISTORY_HIDE_AUTHORS=true leaves every name out", () => {
    const { root, commit } = repository();
    commit("content/paginas/politica.mdx", page("Texto.\n"), "v1", "2026-01-01T10:00:00Z");
    process.env.HISTORY_HIDE_AUTHORS = "true";
    const { history } = contentHistory(root, [politica], reading);
    expect(JSON.stringify(history)).not.toContain("Editora Ana");
    expect(history.pages.find((entry) => entry.path === "/politica")!.versions).toHaveLength(1);
  });

  it("a shallow clone or a folder without git builds with no versions and says so", () => {
    const { root, commit } = repository();
    commit("content/paginas/politica.mdx", page("Um.\n"), "v1", "2026-01-01T10:00:00Z");
    commit("content/paginas/politica.mdx", page("Dois.\n"), "v2", "2026-02-01T10:00:00Z");
    const shallow = fs.mkdtempSync(path.join(os.tmpdir(), "b1-history-shallow-"));
    roots.push(shallow);
    execFileSync("git", ["clone", "-q", "--depth", "1", `file://${root}`, shallow], { stdio: "ignore" });
    const tarball = fs.mkdtempSync(path.join(os.tmpdir(), "b1-history-tar-"));
    roots.push(tarball);
    fs.cpSync(path.join(root, "content"), path.join(tarball, "content"), { recursive: true });
    for (const where of [shallow, tarball]) {
      const { history, news } = contentHistory(where, [politica], reading);
      expect(history.available).toBe(false);
      expect(history.pages.find((entry) => entry.path === "/politica")).toMatchObject({
        versions: [],
        files: ["content/paginas/politica.mdx"],
      });
      expect(news.items).toEqual([]);
    }
  });
});

describe("comparing two versions", () => {
  const history: PageHistory = {
    path: "/x",
    title: "X",
    files: [],
    texts: ["A. B.", "A. C.", "Só na antiga.", "Nova."],
    versions: [
      {
        id: "new",
        date: "",
        summary: "",
        sections: [
          ["f#Um", "Um", 1],
          ["f#Novo", "Novo", 3],
        ],
      },
      {
        id: "old",
        date: "",
        summary: "",
        sections: [
          ["f#Um", "Um", 0],
          ["f#Velho", "Velho", 2],
        ],
      },
    ],
  };
  it("names sections added, removed and changed, and marks the changed sentences", () => {
    expect(compareVersions(history, "old", "new")).toEqual({
      added: [{ title: "Novo", text: "Nova." }],
      removed: [{ title: "Velho", text: "Só na antiga." }],
      changed: [
        {
          title: "Um",
          parts: [
            { kind: "same", text: "A. " },
            { kind: "del", text: "B." },
            { kind: "ins", text: "C." },
          ],
        },
      ],
    });
    expect(compareVersions(history, "new", "new")).toEqual({ added: [], removed: [], changed: [] });
    expect(compareVersions(history, "__proto__", "new")).toBeNull();
    expect(sentences("Miro · Quadro branco. Fim")).toEqual(["Miro · ", "Quadro branco. ", "Fim"]);
  });
});

describe("page-history settings", () => {
  it("reads EDIT_URL_BASE (or CONTENT_EDIT_URL), EDIT_ROLES and HISTORY_HIDE_AUTHORS, refusing values that cannot work in Portuguese", () => {
    expect(readPageHistorySettings({})).toEqual({ editUrlBase: "", editRoles: ["admin", "lider"], hideAuthors: false });
    expect(readPageHistorySettings({ CONTENT_EDIT_URL: "https://git.example.com/e" }).editUrlBase).toBe("https://git.example.com/e");
    expect(readPageHistorySettings({ EDIT_URL_BASE: "https://g/x", EDIT_ROLES: " admin , security ", HISTORY_HIDE_AUTHORS: "1" })).toEqual({
      editUrlBase: "https://g/x",
      editRoles: ["admin", "security"],
      hideAuthors: true,
    });
    expect(() => readPageHistorySettings({ EDIT_URL_BASE: 'javascript:alert(1)"' })).toThrow(/EDIT_URL_BASE deve ser um endereço https/);
    expect(() => readPageHistorySettings({ EDIT_ROLES: "admin,__proto__" })).toThrow(/EDIT_ROLES aceita só papéis do sistema/);
    expect(() => readPageHistorySettings({ EDIT_ROLES: "constructor" })).toThrow(/EDIT_ROLES/);
    expect(() => readPageHistorySettings({ HISTORY_HIDE_AUTHORS: "talvez" })).toThrow(/HISTORY_HIDE_AUTHORS deve ser true ou false/);
    expect(() => readPageHistorySettings({ EDIT_URL_BASE: `https://g/${"a".repeat(70_000)}\u202e` })).toThrow(/EDIT_URL_BASE/);
  });
});

describe("'O que mudou desde a sua última visita' (remembered in the browser only)", () => {
  class MemoryStorage {
    data = new Map<string, string>();
    getItem = (key: string) => this.data.get(key) ?? null;
    setItem = (key: string, value: string) => void this.data.set(key, value);
  }
  const a = "aaaaaaaaaaaa";
  const b = "bbbbbbbbbbbb";
  it("answers the older version seen before, once; nothing on a first visit, an unknown id or a broken entry", async () => {
    const { visitPage, LAST_VISIT_KEY } = await import("../../../src/lib/content/last-visit");
    const storage = new MemoryStorage() as unknown as Storage;
    expect(visitPage(storage, "/faq", a, [a])).toBeNull();
    expect(visitPage(storage, "/faq", b, [b, a])).toBe(a);
    expect(visitPage(storage, "/faq", b, [b, a])).toBeNull();
    expect(JSON.parse(storage.getItem(LAST_VISIT_KEY)!)).toEqual({ "/faq": b });
    storage.setItem(LAST_VISIT_KEY, JSON.stringify({ "/faq": "cccccccccccc", __proto__: a, constructor: { x: 1 } }));
    expect(visitPage(storage, "/faq", b, [b, a])).toBeNull();
    storage.setItem(LAST_VISIT_KEY, '{"__proto__": "aaaaaaaaaaaa", "/glossario": "<script>"}');
    expect(visitPage(storage, "/glossario", b, [b, a])).toBeNull();
    expect(JSON.parse(storage.getItem(LAST_VISIT_KEY)!)).toEqual({ ["__proto__"]: a, "/glossario": b });
    storage.setItem(LAST_VISIT_KEY, "[".repeat(100_000));
    expect(visitPage(storage, "/faq", b, [b, a])).toBeNull();
  });
  it("keeps at most 200 pages", async () => {
    const { visitPage, LAST_VISIT_KEY } = await import("../../../src/lib/content/last-visit");
    const storage = new MemoryStorage() as unknown as Storage;
    for (let index = 0; index < 250; index++) visitPage(storage, `/p${index}`, a, [a]);
    const kept = Object.keys(JSON.parse(storage.getItem(LAST_VISIT_KEY)!));
    expect(kept).toHaveLength(200);
    expect(kept[0]).toBe("/p50");
  });
});
