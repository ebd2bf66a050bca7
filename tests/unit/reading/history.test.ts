import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readingHistory } from "../../../scripts/content/reading-history";
import { compareSections, splitSections } from "../../../src/lib/reading/sections";
import type { RequiredPageSource } from "../../../src/lib/reading/required-page";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A git repository holding one page, committed once per version given. */
function repoWith(versions: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-history-"));
  roots.push(root);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "editor@example.com");
  git("config", "user.name", "Editor");
  fs.mkdirSync(path.join(root, "content/paginas"), { recursive: true });
  for (const [index, text] of versions.entries()) {
    fs.writeFileSync(path.join(root, "content/paginas/politica.mdx"), text);
    git("add", ".");
    git("commit", "-q", "-m", `edição ${index + 1}`, `--date=2026-0${index + 1}-10T12:00:00Z`);
  }
  return root;
}

const file = (version: number, summary: string, body: string) =>
  `---\ntitle: Política\ndescription: Regras.\naccess: signed-in\nleitura:\n  versao: ${version}\n  resumo: ${summary}\n---\n\n${body}`;
const source = (version: number): RequiredPageSource => ({
  path: "/politica",
  title: "Política",
  file: "content/paginas/politica.mdx",
  kind: "mdx",
  version,
  summary: "x",
});

const V1 =
  "Abertura.\n\n## Dados de clientes\n\nNunca cole dados de clientes.\n\n## Ferramentas\n\nUse as **aprovadas**.\n\n## Antigo\n\nSai.\n";

describe("sections of a page", () => {
  it("ignore line wrapping and emphasis, and name headings as the build does", () => {
    const sections = splitSections('Intro.\n\n## Cartões e *abas*\n\nUm   texto\nquebrado.\n\n<Aviso titulo="Atenção">Leia.</Aviso>\n');
    expect(sections).toEqual([
      { id: "conteudo", title: "Início da página", text: "Intro." },
      { id: "cartões-e-abas", title: "Cartões e abas", text: "Um texto quebrado. Atenção Leia." },
    ]);
    const rewrapped = splitSections('Intro.\n\n## Cartões e *abas*\n\nUm texto quebrado.\n\n<Aviso titulo="Atenção">\nLeia.\n</Aviso>\n');
    expect(compareSections(sections, rewrapped)).toEqual({ changed: [], removed: [] });
  });
});

describe("reading history from git", () => {
  it("gives each version's summary and date, and the sections changed since each older version", () => {
    const root = repoWith([
      file(1, "Primeira versão.", V1),
      file(1, "Primeira versão.", V1.replace("Abertura.", "Abertura corrigida.")),
      file(2, "Regra nova para dados.", V1.replace("Abertura.", "Abertura corrigida.").replace("Nunca cole", "Jamais cole")),
    ]);
    fs.writeFileSync(
      path.join(root, "content/paginas/politica.mdx"),
      file(
        3,
        "Ferramentas revistas.",
        V1.replace("Abertura.", "Abertura corrigida.")
          .replace("Nunca cole", "Jamais cole")
          .replace("**aprovadas**", "listadas")
          .replace("## Antigo\n\nSai.\n", ""),
      ),
    );
    const { manifest, problems } = readingHistory(root, [source(3)]);
    expect(problems).toEqual([]);
    const [page] = manifest.pages;
    expect(page!.versions.map(({ version, summary }) => ({ version, summary }))).toEqual([
      { version: 1, summary: "Primeira versão." },
      { version: 2, summary: "Regra nova para dados." },
      { version: 3, summary: "Ferramentas revistas." },
    ]);
    expect(page!.versions[0]!.date).toBe("2026-01-10T12:00:00.000Z");
    expect(page!.versions[1]!.date).toBe("2026-03-10T12:00:00.000Z");
    expect(page!.changesSince).toEqual({
      // The opening's fix was committed under version 1 (a typo fix): it is not a change since 1.
      "1": {
        changed: [
          { id: "dados-de-clientes", title: "Dados de clientes" },
          { id: "ferramentas", title: "Ferramentas" },
        ],
        removed: ["Antigo"],
      },
      "2": { changed: [{ id: "ferramentas", title: "Ferramentas" }], removed: ["Antigo"] },
    });
  });

  it("refuses a version lower than the last commit's", () => {
    const root = repoWith([file(2, "Segunda.", V1)]);
    fs.writeFileSync(path.join(root, "content/paginas/politica.mdx"), file(1, "Voltou.", V1));
    expect(readingHistory(root, [source(1)]).problems.map((problem) => problem.message)).toEqual([
      "a versão de leitura de /politica não pode diminuir: o último commit tem versao 2",
    ]);
  });
});
