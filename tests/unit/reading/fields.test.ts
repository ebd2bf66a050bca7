import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkContent, formatProblem } from "../../../scripts/content/check";

/** A copy of the shipped content folder, changed by `edit`, checked like `npm run content:check` does. */
function checkCopy(edit: (root: string) => void) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-reading-"));
  fs.cpSync("content", path.join(root, "content"), { recursive: true });
  edit(root);
  try {
    const result = checkContent(root);
    return { problems: result.problems.map(formatProblem), required: result.required };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const page = (leitura: string) =>
  `---\ntitle: Política de IA\ndescription: Regras de uso.\naccess: signed-in\n${leitura}---\n\n## Dados de clientes\n\nNunca cole dados.\n`;
const write = (root: string, file: string, text: string) => fs.writeFileSync(path.join(root, file), text);

describe("required reading fields (content:check)", () => {
  it("lists a page whose frontmatter has `leitura`, with its version, summary and roles", () => {
    const { problems, required } = checkCopy((root) => {
      write(
        root,
        "content/paginas/politica-ia.mdx",
        page("leitura:\n  versao: 2\n  resumo: Nova regra para dados de clientes.\n  perfis: [lider]\n"),
      );
      const about = path.join(root, "content/sobre/sobre-b1.mdx");
      fs.writeFileSync(
        about,
        fs.readFileSync(about, "utf8").replace("---\n\n", "leitura: { versao: 1, resumo: Primeira versão. }\n---\n\n"),
      );
    });
    expect(problems).toEqual([]);
    expect(required).toEqual([
      { path: "/sobre-b1", title: "Sobre a B1", file: "content/sobre/sobre-b1.mdx", kind: "mdx", version: 1, summary: "Primeira versão." },
      {
        path: "/politica-ia",
        title: "Política de IA",
        file: "content/paginas/politica-ia.mdx",
        kind: "mdx",
        version: 2,
        summary: "Nova regra para dados de clientes.",
        roles: ["lider"],
      },
    ]);
  });

  it("explains each wrong field in Portuguese, at its line", () => {
    const { problems, required } = checkCopy((root) => {
      write(root, "content/paginas/a.mdx", page("leitura:\n  versao: 0\n  resumo: Ok.\n"));
      write(root, "content/paginas/b.mdx", page("leitura:\n  versao: 1\n"));
      write(root, "content/paginas/c.mdx", page("leitura:\n  versao: 1\n  resumo: Ok.\n  perfis: [gerente]\n"));
      write(root, "content/paginas/d.mdx", page(`leitura:\n  versao: 1.5\n  resumo: "${"x".repeat(201)}"\n  obrigatoria: true\n`));
      write(root, "content/paginas/e.mdx", page("leitura: sim\n"));
    });
    expect(required).toEqual([]);
    expect(problems).toEqual([
      'content/paginas/a.mdx:6: campo "leitura.versao": use um número inteiro a partir de 1',
      'content/paginas/b.mdx:5: campo "leitura.resumo": campo obrigatório ausente',
      'content/paginas/c.mdx:8: campo "leitura.perfis.0": use perfis do sistema (admin, lider, visualizador, security)',
      'content/paginas/d.mdx:6: campo "leitura.versao": use um número inteiro a partir de 1',
      'content/paginas/d.mdx:7: campo "leitura.resumo": o resumo tem no máximo 200 caracteres: uma linha sobre o que mudou',
      'content/paginas/d.mdx:8: campo "leitura": campo desconhecido: obrigatoria',
      'content/paginas/e.mdx:5: campo "leitura": use um bloco com versao, resumo e, se quiser, perfis',
    ]);
  });

  it("takes pages made in YAML or code from content/leitura-obrigatoria.yaml, and refuses the wrong addresses", () => {
    const { problems, required } = checkCopy((root) =>
      write(
        root,
        "content/leitura-obrigatoria.yaml",
        [
          "- { id: comite, pagina: /comite-ia, versao: 3, resumo: Novo cronograma., perfis: [lider, admin] }",
          "- { id: sobre, pagina: /sobre-b1, versao: 1, resumo: Texto. }",
          "- { id: nada, pagina: /nao-existe, versao: 1, resumo: Texto. }",
          "- { id: inicio, pagina: /, versao: 1, resumo: Texto. }",
          "- { id: de-novo, pagina: /comite-ia, versao: 1, resumo: Texto. }",
          "",
        ].join("\n"),
      ),
    );
    expect(problems).toEqual([
      'content/leitura-obrigatoria.yaml:4: campo "pagina": use o endereço da página, ex.: /comite-ia',
      'content/leitura-obrigatoria.yaml:2: a página /sobre-b1 é escrita em MDX: use o campo "leitura" no cabeçalho do arquivo dela',
      "content/leitura-obrigatoria.yaml:3: /nao-existe não é uma página do portal",
      "content/leitura-obrigatoria.yaml:5: a página /comite-ia já aparece nesta lista",
    ]);
    expect(required).toEqual([
      {
        path: "/comite-ia",
        title: "Comitê de IA",
        file: "content/leitura-obrigatoria.yaml",
        kind: "yaml",
        version: 3,
        summary: "Novo cronograma.",
        roles: ["lider", "admin"],
      },
    ]);
  });
});
