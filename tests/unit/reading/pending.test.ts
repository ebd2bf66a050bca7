import { describe, expect, it } from "vitest";
import { mustRead, readingStatusOf } from "../../../src/lib/reading/pending";
import type { RequiredPageSource } from "../../../src/lib/reading/required-page";
import type { Principal } from "../../../src/lib/routes";

const person = (roles: string[], granted: string[] = []): Principal => ({
  userId: "u1",
  email: "a@b1.example.com",
  name: "A",
  roles,
  grantedPaths: new Set(granted),
});
const page = (path: string, roles?: RequiredPageSource["roles"]): RequiredPageSource => ({
  path,
  title: path,
  file: "x",
  kind: "yaml",
  version: 3,
  summary: `Resumo ${path}`,
  ...(roles ? { roles } : {}),
});

describe("who must read a page", () => {
  it("follows the gate's decision, then the editors' roles", () => {
    expect(mustRead(page("/sobre-b1"), person(["visualizador"]))).toBe(true);
    expect(mustRead(page("/sobre-b1"), person([]))).toBe(true);
    expect(mustRead(page("/comite-ia"), person(["visualizador"]))).toBe(false);
    expect(mustRead(page("/comite-ia"), person(["lider"]))).toBe(true);
    // A custom role granted the page may open it, so it must read it unless roles were named.
    expect(mustRead(page("/comite-ia"), person(["analistas"], ["/comite-ia"]))).toBe(true);
    expect(mustRead(page("/comite-ia", ["lider"]), person(["analistas"], ["/comite-ia"]))).toBe(false);
    expect(mustRead(page("/sobre-b1", ["lider"]), person(["visualizador"]))).toBe(false);
    expect(mustRead(page("/nao-existe"), person(["admin"]))).toBe(false);
  });
});

describe("reading status", () => {
  it("counts pages whose current version is not confirmed, keeping the newest confirmation", () => {
    const status = readingStatusOf([page("/sobre-b1"), page("/faq"), page("/comite-ia")], person(["visualizador"]), [
      { pagePath: "/sobre-b1", version: 2, confirmedAt: 10 },
      { pagePath: "/faq", version: 3, confirmedAt: 20 },
      { pagePath: "/faq", version: 1, confirmedAt: 5 },
      { pagePath: "/comite-ia", version: 3, confirmedAt: 30 },
    ]);
    expect(status).toEqual({
      pendentes: 1,
      paginas: [
        { pagina: "/sobre-b1", titulo: "/sobre-b1", versao: 3, resumo: "Resumo /sobre-b1", confirmada: 2, confirmadaEm: 10 },
        { pagina: "/faq", titulo: "/faq", versao: 3, resumo: "Resumo /faq", confirmada: 3, confirmadaEm: 20 },
      ],
    });
  });
});
