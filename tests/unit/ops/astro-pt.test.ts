import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { translateLine } from "../../../scripts/astro-pt.mjs";

describe("Astro's terminal lines in Portuguese (scripts/astro-pt.mjs)", () => {
  it("rewords the build's and the dev server's status lines, keeping the time stamp and the tag", () => {
    const lines: [string, string][] = [
      ["22:31:18 [build] Server built in 11.40s", "22:31:18 [build] Servidor montado em 11,40 s"],
      ["22:31:18 [build] Complete!", "22:31:18 [build] Pronto!"],
      ["22:31:07 [build] ✓ Completed in 4.80s.", "22:31:07 [build] ✓ Concluído em 4,80 s."],
      ["22:31:07 [build] Collecting build info...", "22:31:07 [build] Reunindo as informações do build..."],
      ["22:31:07 [build] Building server entrypoints...", "22:31:07 [build] Montando as entradas do servidor..."],
      ["22:31:09 [vite] ✓ built in 2.85s", "22:31:09 [vite] ✓ montado em 2,85 s"],
      ['22:31:07 [build] output: "static"', '22:31:07 [build] saída: "static"'],
      ["22:31:07 [build] directory: /srv/hub/dist/", "22:31:07 [build] pasta: /srv/hub/dist/"],
      ["22:31:05 [types] Generated 1.28s", "22:31:05 [types] Tipos gerados em 1,28 s"],
      ["22:31:05 [content] Syncing content", "22:31:05 [content] Sincronizando o conteúdo"],
      ["\u001b[42m prerendering static routes \u001b[49m", " pré-renderizando as páginas estáticas"],
      [" astro  v7.3.5 ready in 512 ms", " astro v7.3.5 pronto em 512 ms"],
      ["┃ Network  use --host to expose", "┃ Rede    use --host para expor"],
      ["10:00:00 [watch] content/faq.yaml", "10:00:00 [watch] content/faq.yaml"],
      ["10:00:01 [vite] page reload src/pages/faq.astro", "10:00:01 [vite] página recarregada: src/pages/faq.astro"],
      ["23:01:07 [vite] [optimizer] bundling dependencies...", "23:01:07 [vite] [optimizer] empacotando as dependências..."],
      [" update  ▶ New version of Astro available: 7.4.8", " atualização ▶ Nova versão do Astro disponível: 7.4.8"],
    ];
    for (const [english, portuguese] of lines) expect(translateLine(english)).toBe(portuguese);
  });

  it("leaves every other line as it came, colours included (errors, warnings, the portal's own lines)", () => {
    for (const line of [
      '\u001b[31mcontent/paginas/onboarding.mdx:2: campo "access": falta o campo obrigatório `access`\u001b[39m',
      "[ERROR] Could not resolve import",
      "build-server: 36 páginas movidas para dist/pages",
      "  ├─ /faq/index.html (+54ms)",
      "",
    ]) {
      expect(translateLine(line)).toBe(line);
    }
  });

  it("runs Astro (its version answers through the wrapper)", () => {
    const version = execFileSync(process.execPath, ["scripts/astro-pt.mjs", "--version"], { encoding: "utf8" });
    expect(version).toMatch(/\d+\.\d+\.\d+/);
  });
});
