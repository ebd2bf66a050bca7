import { describe, expect, it } from "vitest";
import { headingText, showsToc, tocEntries } from "../../../src/lib/content/headings";

describe("the contents list of a page", () => {
  const html =
    '<h1 id="topo">Título</h1>' +
    '<div><h2 id="catalogo-titulo" data-toc="catalogo" class="x">Catálogo &amp; <em>filtros</em></h2><a href="#catalogo">…</a></div>' +
    "<h3>Cartão sem âncora</h3>" +
    '<div><h3 data-toc="etapa-ideacao">Ideação</h3></div>' +
    '<h2 data-toc="ultima-secao">Última\n  seção</h2>';

  it("lists only marked h2/h3 headings, in order, with their anchors and plain text", () => {
    expect(tocEntries(html)).toEqual([
      { level: 2, anchor: "catalogo", text: "Catálogo & filtros" },
      { level: 3, anchor: "etapa-ideacao", text: "Ideação" },
      { level: 2, anchor: "ultima-secao", text: "Última seção" },
    ]);
  });

  it("decodes the entities Astro escapes", () => {
    expect(headingText("Templates &amp; Ferramentas &quot;B1&quot; &lt;3 d&#39;água")).toBe('Templates & Ferramentas "B1" <3 d\'água');
  });

  it("shows the list from three headings, or from one on MDX pages, never when the page opts out", () => {
    const two = tocEntries(html).slice(0, 2);
    expect(showsToc(two, "auto")).toBe(false);
    expect(showsToc(tocEntries(html), "auto")).toBe(true);
    expect(showsToc(two.slice(0, 1), "always")).toBe(true);
    expect(showsToc([], "always")).toBe(false);
    expect(showsToc(tocEntries(html), "never")).toBe(false);
  });
});
