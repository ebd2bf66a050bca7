import { describe, expect, it } from "vitest";
import { compileTemplate, renderTemplate, withoutClosedLinks } from "../../../src/lib/content/personalize";
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

describe("'Editar esta página' for the roles of EDIT_ROLES (issue 66)", () => {
  const edit = compileTemplate("<f><!--b1:if:role:admin,lider--><a>Editar esta página</a><!--b1:fi--></f>");
  it("is kept only for a person holding one of the roles", () => {
    expect(renderTemplate(edit, user(["lider"]))).toBe("<f><a>Editar esta página</a></f>");
    expect(renderTemplate(edit, user(["visualizador", "admin"]))).toBe("<f><a>Editar esta página</a></f>");
    expect(renderTemplate(edit, user(["visualizador"]))).toBe("<f></f>");
    expect(renderTemplate(edit, user(["admin,lider"]))).toBe("<f></f>");
    expect(renderTemplate(edit, user([]))).toBe("<f></f>");
    expect(renderTemplate(edit, null)).toBe("<f></f>");
  });
});

describe("previous / next along the reading order", () => {
  // What the build writes for /sementezz: one link per candidate, the gate keeps the reader's.
  const page = compileTemplate(
    "<nav>" +
      "<!--b1:if:previous:/sementezz>/sobre-b1--><a>Sobre a B1</a><!--b1:fi-->" +
      "<!--b1:if:next:/sementezz>/comite-ia--><a>Comitê de IA</a><!--b1:fi-->" +
      "</nav>",
  );

  it("skips a page the reader may not open, and sends nothing of it", () => {
    expect(renderTemplate(page, user(["visualizador"]))).toBe("<nav><a>Sobre a B1</a></nav>");
  });

  it("leads to a role-gated page for its roles and for a custom role that grants it", () => {
    expect(renderTemplate(page, user(["lider"]))).toBe("<nav><a>Sobre a B1</a><a>Comitê de IA</a></nav>");
    const custom: Principal = { ...user(["convidado"]), grantedPaths: new Set(["/comite-ia"]) };
    expect(renderTemplate(page, custom)).toBe("<nav><a>Sobre a B1</a><a>Comitê de IA</a></nav>");
  });

  it("a page past the nearest open one is never the neighbour", () => {
    const far = compileTemplate("<!--b1:if:previous:/sementezz>/contato-->x<!--b1:fi-->");
    expect(renderTemplate(far, user(["admin"]))).toBe("");
  });
});

describe("links to pages the reader may not open", () => {
  const limited = { userId: "u", email: "", name: "", roles: [], grantedPaths: new Set(["/5ps"]), limited: true };
  const html =
    '<p>Veja <a class="x" href="/etapas-processo#fases">as etapas</a>, <a href="/5ps">os 5 Ps</a> e <a href="https://example.com/templates">fora</a>.</p>';

  it("become plain text for a signed-in reader; open pages, outside links and signed-out visitors are untouched", () => {
    expect(withoutClosedLinks(html, limited)).toBe(
      '<p>Veja <span>as etapas</span>, <a href="/5ps">os 5 Ps</a> e <a href="https://example.com/templates">fora</a>.</p>',
    );
    expect(withoutClosedLinks(html, { ...limited, limited: false })).toBe(html);
    expect(withoutClosedLinks(html, null)).toBe(html);
  });
});
