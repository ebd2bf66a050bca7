import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkContent, formatProblem } from "../../../scripts/content/check";
import { contentPageRoute, decideAccess, type Principal } from "../../../src/lib/routes";

/** A copy of the shipped content folder, changed by `edit`, checked like `npm run content:check` does. */
function checkCopy(edit: (root: string) => void): string[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-check-"));
  fs.cpSync("content", path.join(root, "content"), { recursive: true });
  edit(root);
  try {
    return checkContent(root).problems.map(formatProblem);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const replaceIn = (root: string, file: string, from: string, to: string) => {
  const full = path.join(root, file);
  fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace(from, to));
};

describe("content:check", () => {
  it("passes on the shipped content and lists its MDX pages", () => {
    const { problems, pages } = checkContent(process.cwd());
    expect(problems).toEqual([]);
    expect(pages.map((page) => page.path)).toContain("/exemplo-componentes");
  });

  it("points YAML problems at the file, line and field, in Portuguese", () => {
    const problems = checkCopy((root) => {
      replaceIn(root, "content/faq.yaml", 'question: "Quanto tempo leva cada etapa?"', 'question: ""');
      replaceIn(root, "content/glossary.yaml", 'id: "raci"', 'id: "mvp"');
    });
    expect(problems).toContain('content/faq.yaml:3: campo "question": texto obrigatório');
    expect(problems.some((line) => /^content\/glossary\.yaml:\d+: id duplicado "mvp"$/.test(line))).toBe(true);
  });

  it("refuses a stage whose template repeats a tool, an unknown frontmatter field and a page that takes an existing address", () => {
    const problems = checkCopy((root) => {
      replaceIn(root, "content/etapas/ideacao.mdx", "tools: [Lean Canvas,", "tools: [Canvas de Ideação, Lean Canvas,");
      replaceIn(root, "content/paginas/exemplo-componentes.mdx", "order: 900", "ordem: 900");
      fs.writeFileSync(path.join(root, "content/paginas/faq.mdx"), "---\ntitle: FAQ\ndescription: x\naccess: signed-in\n---\n");
    });
    expect(problems).toContain(
      'content/etapas/ideacao.mdx:4: campo "tools": o template da etapa já aparece na lista: não repita em `tools` o nome dado em `template`',
    );
    expect(problems).toContain("content/paginas/exemplo-componentes.mdx:5: campo desconhecido: ordem");
    expect(problems).toContain("content/paginas/faq.mdx:1: o endereço /faq já é usado pelo portal: escolha outro nome de arquivo");
  });
});

describe("content:check, a page without `access`", () => {
  it("says the required field is missing, at the frontmatter", () => {
    const problems = checkCopy((root) => {
      fs.writeFileSync(path.join(root, "content/paginas/sem-acesso.mdx"), "---\ntitle: Sem acesso\ndescription: x\n---\nTexto.\n");
    });
    expect(problems.filter((line) => line.startsWith("content/paginas/sem-acesso.mdx"))).toEqual([
      'content/paginas/sem-acesso.mdx:2: campo "access": falta o campo obrigatório `access` (use "signed-in" ou uma lista de perfis do sistema: admin, lider, visualizador, security)',
    ]);
  });
});

describe("content:check, downloads", () => {
  it("lists the files offered with the pages that show them, and every action still without a link or file", () => {
    const { downloads, missing } = checkContent(process.cwd());
    expect(downloads).toEqual([
      { file: "canvas-ideacao.pdf", path: "/arquivos/canvas-ideacao.pdf", pages: ["/etapas-processo", "/templates"] },
      { file: "exemplo-modelo.pdf", path: "/arquivos/exemplo-modelo.pdf", pages: ["/exemplo-componentes"] },
    ]);
    const names = missing.map((item) => `${item.file}:${item.line}: ${item.name}`);
    expect(names).toContain("content/templates.yaml:5: Lean Canvas");
    expect(names).toContain("content/paginas/exemplo-componentes.mdx:53: Baixar o modelo");
    expect(names.some((line) => line.includes("Canvas de Ideação"))).toBe(false);
  });

  it("refuses a file that is not there, a bad name, a link and a file together, and an unknown file in MDX", () => {
    const problems = checkCopy((root) => {
      replaceIn(root, "content/templates.yaml", 'file: "canvas-ideacao.pdf"', 'file: "nao-existe.docx"');
      replaceIn(
        root,
        "content/templates.yaml",
        'title: "Lean Canvas", description: "Resume',
        'title: "Lean Canvas", file: "../segredo.pdf", description: "Resume',
      );
      replaceIn(root, "content/templates.yaml", 'title: "Mapa de Empatia",', 'title: "Mapa de Empatia", file: "canvas-ideacao.pdf",');
      replaceIn(
        root,
        "content/templates.yaml",
        'color: "blue", link: "" }\n- { id: "brainstorming"',
        'color: "blue", link: "https://x.example.com" }\n- { id: "brainstorming"',
      );
      replaceIn(root, "content/paginas/exemplo-componentes.mdx", 'arquivo="exemplo-modelo.pdf"', 'arquivo="sumiu.pdf"');
    });
    expect(problems).toContain("content/templates.yaml:4: arquivo não encontrado: coloque nao-existe.docx em content/arquivos/");
    expect(problems.filter((line) => line.startsWith("content/templates.yaml:5:"))).toEqual([
      expect.stringMatching(/^content\/templates\.yaml:5: campo "file": arquivo inválido: use o nome de um arquivo em content\/arquivos\//),
    ]);
    expect(problems).toContain('content/templates.yaml:6: use "link" ou "file", não os dois');
    expect(problems).toContain(
      "content/paginas/exemplo-componentes.mdx:55: arquivo não encontrado: coloque sumiu.pdf em content/arquivos/",
    );
  });
});

describe("content:check, a quote left open", () => {
  it("checks the search synonyms: a repeated term, punctuation and an unknown field, at their lines", () => {
    const problems = checkCopy((root) => {
      const file = path.join(root, "content/busca/sinonimos.yaml");
      fs.appendFileSync(
        file,
        '\n- id: repetido\n  termos: [CHATGPT, "IA?"]\n  nas_paginas: [assistente conversacional]\n  peso: 2\n' +
          "- id: prototipo\n  __proto__: { polluted: true }\n  termos: [abc]\n  nas_paginas: [def]\n",
      );
    });
    const lines = fs.readFileSync("content/busca/sinonimos.yaml", "utf8").split("\n").length;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^content/busca/sinonimos\\.yaml:${lines + 2}: .*termo "CHATGPT" repetido: já está na entrada "assistente-conversacional"`,
          ),
        ),
        expect.stringMatching(/^content\/busca\/sinonimos\.yaml:\d+: .*use só letras, números, espaços e hífens/),
        expect.stringMatching(/^content\/busca\/sinonimos\.yaml:\d+: .*peso/),
        expect.stringMatching(/^content\/busca\/sinonimos\.yaml:\d+: .*__proto__/),
      ]),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("words the YAML library's errors in Portuguese", () => {
    const problems = checkCopy((root) =>
      replaceIn(root, "content/faq.yaml", 'question: "Quanto tempo leva cada etapa?"', 'question: "Quanto tempo leva cada etapa?'),
    );
    expect(problems).toEqual([
      "content/faq.yaml:3: YAML inválido — texto inesperado nesta linha: confira aspas, vírgulas, chaves e colchetes",
    ]);
  });

  it("points at the line where the quote opens, in a YAML file and in a frontmatter", () => {
    const problems = checkCopy((root) => {
      replaceIn(root, "content/landing.yaml", "  title: Metodologia B1", '  title: "Metodologia B1');
      replaceIn(root, "content/paginas/exemplo-componentes.mdx", "title: Exemplo de componentes", 'title: "Exemplo de componentes');
    });
    expect(problems.filter((line) => line.startsWith("content/landing.yaml:"))).toEqual([
      'content/landing.yaml:2: YAML inválido — aspas abertas e não fechadas: feche o texto com " na mesma linha',
    ]);
    expect(problems.filter((line) => line.startsWith("content/paginas/exemplo-componentes.mdx:"))).toEqual([
      'content/paginas/exemplo-componentes.mdx:2: cabeçalho YAML inválido — aspas abertas e não fechadas: feche o texto com " na mesma linha',
    ]);
  });
});

describe("route of a content page", () => {
  const principal = (roles: string[], granted: string[] = []): Principal => ({
    userId: "u",
    email: "u@b1.example.com",
    name: "U",
    roles,
    grantedPaths: new Set(granted),
  });
  const page = { slug: "x", path: "/x", title: "X", description: "d", nav: "header" as const, order: 1, file: "content/paginas/x.mdx" };

  it("gives a role list grantable access and a nav entry for those roles", () => {
    const route = contentPageRoute({ ...page, access: ["lider"] });
    expect(route.nav).toEqual({ label: "X", roles: ["lider"] });
    expect(decideAccess(route, principal(["lider"]))).toBe("allow");
    expect(decideAccess(route, principal(["visualizador"]))).toBe("deny");
    expect(decideAccess(route, principal(["custom"], ["/x"]))).toBe("allow");
    expect(decideAccess(route, null)).toBe("sign-in");
  });

  it("opens a signed-in page to anyone signed in, and leaves it out of the menu with nav none", () => {
    const route = contentPageRoute({ ...page, nav: "none", access: "signed-in" });
    expect(route.nav).toBeUndefined();
    expect(decideAccess(route, principal([]))).toBe("allow");
  });
});

describe("content:check, MDX syntax", () => {
  /** An MDX page of the copy with `body` after its frontmatter (which ends on line 5). */
  const pageWith = (body: string) =>
    checkCopy((root) =>
      fs.writeFileSync(path.join(root, "content/paginas/nova.mdx"), `---\ntitle: Nova\ndescription: x\naccess: signed-in\n---\n${body}`),
    );

  it("says in Portuguese, with line and column, that a tag was not closed", () => {
    expect(pageWith('# Nova\n\nTexto.\n\n<Aviso tipo="info">\nSem fechar.\n')).toContain(
      "content/paginas/nova.mdx:10:1: a tag <Aviso> foi aberta e não foi fechada: feche com </Aviso> (ou escreva <Aviso />)",
    );
  });

  it("points a bad expression at its line and column", () => {
    const problems = pageWith("# Nova\n\nTotal: {1 +}\n");
    expect(problems).toContain(
      "content/paginas/nova.mdx:8:12: expressão entre chaves { } inválida: confira o que está entre elas (para escrever uma chave no texto, use \\{ )",
    );
  });

  it("refuses imports and exports, and components the pages do not have", () => {
    const problems = pageWith("import X from './x.js'\n\n# Nova\n\n<Desconhecido />\n");
    expect(problems).toContain(
      "content/paginas/nova.mdx:6:1: as páginas em MDX não usam import nem export: os componentes (Aviso, Acao…) já estão disponíveis em todas",
    );
    expect(problems.some((line) => line.startsWith("content/paginas/nova.mdx:10: componente desconhecido <Desconhecido>"))).toBe(true);
  });

  it("words every common slip in Portuguese, at a line of the file", () => {
    const slips = ["<Aviso>\n\n</Acao>", "<Aviso>\n- a\n- b</Aviso>", "amo <3 MDX", "Total: {1 ", "<Aviso titulo=>x</Aviso>"];
    for (const slip of slips) {
      const problems = pageWith(`# Nova\n\n${slip}\n`).filter((line) => line.startsWith("content/paginas/nova.mdx:"));
      expect(problems, slip).toHaveLength(1);
      expect(problems[0], slip).toMatch(/^content\/paginas\/nova\.mdx:(8|9|10):\d+: [a-z<]/);
      expect(problems[0], slip).not.toMatch(/MDX inválido|Expected|Unexpected/);
    }
  });
});
