import { describe, expect, it } from "vitest";
import { compileTemplate, renderTemplate } from "../../../src/lib/content/personalize";
import type { Principal } from "../../../src/lib/routes";

const user = (roles: string[]): Principal => ({ userId: "u", email: "e", name: "n", roles, grantedPaths: new Set() });
const html =
  "<h>" +
  "<!--b1:if:anon--><a>Entrar</a><!--b1:fi-->" +
  "<!--b1:if:user--><menu><!--b1:if:admin--><a>Painel Admin</a><!--b1:fi--><b>Sair</b></menu><!--b1:fi-->" +
  "<!--b1:if:nav:/comite-ia--><a>Comitê IA</a><!--b1:fi-->" +
  "</h>";

describe("personalised templates", () => {
  const segments = compileTemplate(html);

  it("shows visitors the sign-in button only", () => {
    expect(renderTemplate(segments, null)).toBe("<h><a>Entrar</a></h>");
  });

  it("keeps nested blocks per role", () => {
    expect(renderTemplate(segments, user(["visualizador"]))).toBe("<h><menu><b>Sair</b></menu></h>");
    expect(renderTemplate(segments, user(["admin"]))).toBe("<h><menu><a>Painel Admin</a><b>Sair</b></menu><a>Comitê IA</a></h>");
  });

  it("shows a role-gated entry to a custom role that grants its page", () => {
    const custom: Principal = { ...user(["convidado"]), grantedPaths: new Set(["/comite-ia"]) };
    expect(renderTemplate(segments, custom)).toBe("<h><menu><b>Sair</b></menu><a>Comitê IA</a></h>");
  });
});
