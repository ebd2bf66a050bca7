import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentNews } from "../../../scripts/content/news";
import { newsPageFor, type NewsItem } from "../../../src/lib/reading/news";
import type { RequiredPage } from "../../../src/lib/reading/required-page";
import type { Principal } from "../../../src/lib/routes";

const visualizador: Principal = { userId: "u", email: "v@b1.example.com", name: "V", roles: ["visualizador"], grantedPaths: new Set() };
const item = (id: string, pagina: string): NewsItem => ({
  id,
  pagina,
  titulo: pagina,
  data: "2026-01-01T00:00:00.000Z",
  resumo: `Mudou ${pagina}`,
});

describe("a page of /novidades", () => {
  it("leaves out pages the person may not open and pages back with a cursor", () => {
    const items = [item("a:/faq", "/faq"), item("b:/comite-ia", "/comite-ia"), item("c:/glossario", "/glossario"), item("d:/faq", "/faq")];
    const first = newsPageFor(items, visualizador, null, 2);
    expect(first).toEqual({ itens: [items[0], items[2]], proximo: "c:/glossario" });
    expect(newsPageFor(items, visualizador, first.proximo, 2)).toEqual({ itens: [items[3]], proximo: null });
    // A cursor naming a hidden item is answered like an unknown one: nothing learnt from it.
    expect(newsPageFor(items, visualizador, "b:/comite-ia", 2)).toEqual({ itens: [], proximo: null });
    expect(JSON.stringify(newsPageFor(items, visualizador, null, 10))).not.toContain("comite-ia");
  });
});

describe("content changes from git", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  it("lists each commit once per page it changed, with the new version's summary, else the commit's 'Novidade:' line, else a neutral Portuguese line (never the commit subject)", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-news-"));
    roots.push(root);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
    git("init", "-q");
    git("config", "user.email", "editor@example.com");
    git("config", "user.name", "Editor");
    fs.mkdirSync(path.join(root, "content/etapas"), { recursive: true });
    const commit = (file: string, text: string, message: string, date: string) => {
      fs.writeFileSync(path.join(root, file), text);
      git("add", ".");
      git("commit", "-q", "-m", message, `--date=${date}`);
      return git("rev-parse", "HEAD");
    };
    commit("content/faq.yaml", "[]\n", "faq: deadlines\n\nNovidade: Nova pergunta sobre prazos", "2026-01-01T10:00:00Z");
    fs.writeFileSync(path.join(root, "content/glossary.yaml"), "[]\n");
    commit("content/etapas/ideacao.mdx", "x\n", "Fix typos in stage and glossary", "2026-02-01T10:00:00Z");
    const versioned = commit("content/committee.yaml", "a: 1\n", "committee: bump", "2026-03-01T10:00:00Z");
    const committee = {
      path: "/comite-ia",
      versions: [{ version: 2, summary: "Novo cronograma do comitê.", date: "", commit: versioned }],
    } as unknown as RequiredPage;

    const { items } = contentNews(root, [], [committee]);
    expect(items.map(({ pagina, titulo, data, resumo }) => ({ pagina, titulo, data, resumo }))).toEqual([
      { pagina: "/comite-ia", titulo: "Comitê de IA", data: "2026-03-01T10:00:00.000Z", resumo: "Novo cronograma do comitê." },
      { pagina: "/etapas-processo", titulo: "Etapas do Processo", data: "2026-02-01T10:00:00.000Z", resumo: "Alterado: Início da página." },
      { pagina: "/glossario", titulo: "Glossário", data: "2026-02-01T10:00:00.000Z", resumo: "Conteúdo atualizado" },
      { pagina: "/faq", titulo: "Perguntas Frequentes", data: "2026-01-01T10:00:00.000Z", resumo: "Nova pergunta sobre prazos" },
    ]);
    expect(new Set(items.map((entry) => entry.id)).size).toBe(4);
  });

  it("without a 'Novidade:' line, tells from the diff which sections or entries were added, changed and removed, linking the page's own sections", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-news-diff-"));
    roots.push(root);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
    git("init", "-q");
    git("config", "user.email", "editor@example.com");
    git("config", "user.name", "Editor");
    fs.mkdirSync(path.join(root, "content/paginas"), { recursive: true });
    const commit = (file: string, text: string, message: string) => {
      fs.writeFileSync(path.join(root, file), text);
      git("add", ".");
      git("commit", "-q", "-m", message);
    };
    const page = (body: string) => `---\ntitle: Política\n---\n\n${body}`;
    commit("content/paginas/politica.mdx", page("Intro.\n\n## Dados de clientes\n\nNunca cole.\n\n## Antiga\n\nSai.\n"), "v1");
    commit(
      "content/paginas/politica.mdx",
      page("Intro.\n\n## Dados de clientes\n\nSó em ferramentas aprovadas.\n\n## Ferramentas *aprovadas*\n\nLista.\n"),
      "edit",
    );
    commit(
      "content/faq.yaml",
      '- { id: "a", question: "Primeira?", answer: "x" }\n- { id: "b", question: "Segunda?", answer: "y" }\n',
      "faq",
    );
    commit(
      "content/faq.yaml",
      '- { id: "a", question: "Primeira?", answer: "mudou" }\n- { id: "c", question: "Terceira?", answer: "z" }\n',
      "faq 2",
    );
    // A YAML file that is an object, not a list (fast-track.yaml): named entries by name, other texts quoted.
    commit(
      "content/fast-track.yaml",
      'banner: Transforme ideias em produtos funcionando em 2 dias.\ntwoDays:\n  highlights:\n    - { title: "Validação rápida", text: "Em horas." }\n  day1:\n    - Imersão no problema\n',
      "fast track",
    );
    commit(
      "content/fast-track.yaml",
      'banner: Transforme ideias em produtos funcionando em 48 horas, com o cliente.\ntwoDays:\n  highlights:\n    - { title: "Validação rápida", text: "Em minutos." }\n    - { title: "Escala", text: "Segue." }\n  day1:\n    - Imersão no problema\n    - Testes com usuários\n',
      "fast track 2",
    );
    // Only the quoting: the same texts once read, so nothing for readers.
    commit(
      "content/fast-track.yaml",
      'banner: "Transforme ideias em produtos funcionando em 48 horas, com o cliente."\ntwoDays:\n  highlights:\n    - { title: Validação rápida, text: Em minutos. }\n    - { title: Escala, text: Segue. }\n  day1:\n    - Imersão no problema\n    - Testes com usuários\n',
      "fast track quotes",
    );
    // Only the frontmatter: no section changed, the neutral line stays.
    commit(
      "content/paginas/politica.mdx",
      page("Intro.\n\n## Dados de clientes\n\nSó em ferramentas aprovadas.\n\n## Ferramentas *aprovadas*\n\nLista.\n").replace(
        "Política",
        "Política de IA",
      ),
      "title",
    );
    const pages = [
      {
        slug: "politica",
        path: "/politica",
        title: "Política",
        description: "",
        nav: "none",
        order: 0,
        access: "signed-in",
        file: "content/paginas/politica.mdx",
      },
    ] as const;

    const { items } = contentNews(root, pages as never, []);
    expect(items.map(({ pagina, resumo, secoes }) => ({ pagina, resumo, secoes }))).toEqual([
      { pagina: "/politica", resumo: "Conteúdo atualizado", secoes: undefined },
      {
        pagina: "/ai-first-fast-track",
        resumo: "Novo: Escala, “Testes com usuários”. Alterado: “Transforme ideias em produtos funcionando em 48…”, Validação rápida.",
        secoes: undefined,
      },
      {
        pagina: "/ai-first-fast-track",
        resumo: "Novo: “Transforme ideias em produtos funcionando em 2…”, Validação rápida, “Imersão no problema”.",
        secoes: undefined,
      },
      { pagina: "/faq", resumo: "Novo: Terceira?. Alterado: Primeira?. Removido: Segunda?.", secoes: undefined },
      { pagina: "/faq", resumo: "Novo: Primeira?, Segunda?.", secoes: undefined },
      {
        pagina: "/politica",
        resumo: "Novo: Ferramentas aprovadas. Alterado: Dados de clientes. Removido: Antiga.",
        secoes: [
          { id: "ferramentas-aprovadas", titulo: "Ferramentas aprovadas" },
          { id: "dados-de-clientes", titulo: "Dados de clientes" },
        ],
      },
      {
        pagina: "/politica",
        resumo: "Novo: Dados de clientes, Antiga. Alterado: Início da página.",
        secoes: [
          { id: "dados-de-clientes", titulo: "Dados de clientes" },
          { id: "antiga", titulo: "Antiga" },
          { id: "conteudo", titulo: "Início da página" },
        ],
      },
    ]);
  });
});
