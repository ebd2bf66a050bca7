import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
const personas: Record<string, TestUser> = {};

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["visualizador", "admin", "security"]) personas[role] = await createTestUser(server.db, [role]);
});
afterAll(() => server?.stop());

async function page(path: string, who: TestUser | null): Promise<string> {
  const response = await fetch(server.url + path, { headers: who ? { cookie: `b1_session=${who.token}` } : {}, redirect: "manual" });
  expect(response.status).toBe(200);
  return response.text();
}
const footer = (html: string) => html.slice(html.indexOf("<footer"), html.indexOf("</footer>"));
const linksTo = (html: string, path: string) => html.includes(`href="${path}"`);

describe("links lead only to pages the reader may open", () => {
  it("a visualizador's home and footer have no link to /comite-ia; an admin's do", async () => {
    const viewerHome = await page("/", personas.visualizador!);
    expect(linksTo(viewerHome, "/comite-ia")).toBe(false);
    expect(linksTo(footer(await page("/faq", personas.visualizador!)), "/comite-ia")).toBe(false);
    expect(linksTo(footer(viewerHome), "/contato")).toBe(true);

    const adminHome = await page("/", personas.admin!);
    expect(linksTo(adminHome.slice(adminHome.indexOf("<main")), "/comite-ia")).toBe(true);
    expect(linksTo(footer(adminHome), "/comite-ia")).toBe(true);
  });

  it("a signed-out visitor's footer offers no page that would send them to sign in", async () => {
    const home = footer(await page("/", null));
    for (const path of ["/sobre-b1", "/contato", "/templates", "/etapas-processo", "/comite-ia", "/faq"])
      expect(linksTo(home, path), path).toBe(false);
  });

  it("a partner whose limited role opens /templates but not /playbook-produtos gets no link to it anywhere in /templates: not in the card's 'Abrir', not in the island's props (issue 62)", async () => {
    const admin = personas.admin!;
    const call = (method: string, urlPath: string, body: unknown) =>
      fetch(server.url + urlPath, {
        method,
        headers: { cookie: `b1_session=${admin.token}`, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await call("POST", "/api/admin/roles", {
      name: "parceiros-links",
      description: "Parceiros com acesso limitado",
      pages: ["/templates", "/5ps"],
      limited: true,
    });
    expect(created.status).toBe(201);
    const partner = await createTestUser(server.db, [], "parceiro-links");
    const { assignRoleByEmail } = await import("../../../src/lib/server/admin/roles");
    expect(await assignRoleByEmail(server.db, partner.email, "parceiros-links")).toBe(true);

    const html = await page("/templates", partner);
    expect(html).not.toContain("/playbook-produtos");
    // The card is still listed, with its action as text that leads nowhere (as a closed link in page text).
    expect(html).toContain('id="template-playbook-produtos"');
    // Downloads the page offers stay (the partner opens the page that lists them).
    expect(html).toContain("/arquivos/canvas-ideacao.pdf");

    const viewer = await page("/templates", personas.visualizador!);
    expect(linksTo(viewer, "/playbook-produtos")).toBe(true);
    expect(viewer).toContain("&quot;link&quot;:[0,&quot;/playbook-produtos&quot;]");
  });
});
