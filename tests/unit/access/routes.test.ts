import { describe, expect, it } from "vitest";
import {
  decideAccess,
  findApiRule,
  findRoute,
  readingCandidates,
  readingNeighbour,
  visibleNav,
  type Principal,
} from "../../../src/lib/routes";

function principal(roles: string[], granted: string[] = []): Principal {
  return { userId: "u", email: "u@b1.example.com", name: "U", roles, grantedPaths: new Set(granted) };
}

describe("decideAccess", () => {
  const route = (path: string) => findRoute(path)!;

  it("sends anonymous visitors of protected routes to sign-in and lets them see public ones", () => {
    expect(decideAccess(route("/"), null)).toBe("allow");
    expect(decideAccess(route("/auth"), null)).toBe("allow");
    expect(decideAccess(route("/templates"), null)).toBe("sign-in");
    expect(decideAccess(route("/admin-panel"), null)).toBe("sign-in");
  });

  it("opens sign-in-only pages to a user with no role at all, and nothing more", () => {
    const nobody = principal([]);
    expect(decideAccess(route("/faq"), nobody)).toBe("allow");
    expect(decideAccess(route("/acesso-negado"), nobody)).toBe("allow");
    expect(decideAccess(route("/comite-ia"), nobody)).toBe("deny");
    expect(decideAccess(route("/audit-logs"), nobody)).toBe("deny");
  });

  it("follows the spec's role table", () => {
    expect(decideAccess(route("/comite-ia"), principal(["lider"]))).toBe("allow");
    expect(decideAccess(route("/comite-ia"), principal(["visualizador"]))).toBe("deny");
    expect(decideAccess(route("/audit-logs"), principal(["security"]))).toBe("allow");
    expect(decideAccess(route("/audit-logs"), principal(["lider"]))).toBe("deny");
    expect(decideAccess(route("/admin-panel"), principal(["admin"]))).toBe("allow");
    expect(decideAccess(route("/admin-panel"), principal(["security", "lider"]))).toBe("deny");
  });

  it("lets a custom role's permission grant a page but never the admin panel", () => {
    const custom = principal(["auditor"], ["/comite-ia", "/admin-panel"]);
    expect(decideAccess(route("/comite-ia"), custom)).toBe("allow");
    expect(decideAccess(route("/admin-panel"), custom)).toBe("deny");
  });
});

describe("findApiRule", () => {
  it("matches whole segments only", () => {
    expect(findApiRule("/api/admin/users")?.page).toBe("/admin-panel");
    expect(findApiRule("/api/admin")?.page).toBe("/admin-panel");
    expect(findApiRule("/api/administrator")).toBeUndefined();
  });
});

describe("visibleNav", () => {
  const labels = (p: Principal | null) => visibleNav(p).map((r) => r.nav!.label);

  it("shows Home only to signed-out visitors", () => {
    expect(labels(null)).toEqual(["Home"]);
  });

  it("hides Comitê IA from visualizador and shows it to lider", () => {
    expect(labels(principal(["visualizador"]))).not.toContain("Comitê IA");
    expect(labels(principal(["visualizador"]))).toContain("Templates & Ferramentas");
    expect(labels(principal(["lider"]))).toContain("Comitê IA");
  });

  it("shows a page's entry to a custom role that grants it", () => {
    expect(labels(principal(["comite"], ["/comite-ia"]))).toContain("Comitê IA");
  });
});

describe("reading order", () => {
  it("follows the table's order from the methodology home to the committee", () => {
    expect(readingNeighbour("/home-metodologia", "previous", principal(["visualizador"]))).toBeUndefined();
    expect(readingNeighbour("/etapas-processo", "previous", principal(["visualizador"]))?.path).toBe("/5ps");
    expect(readingNeighbour("/etapas-processo", "next", principal(["visualizador"]))?.path).toBe("/templates");
    expect(readingNeighbour("/sementezz", "next", principal(["lider"]))?.path).toBe("/comite-ia");
    expect(readingNeighbour("/sementezz", "next", principal(["visualizador"]))).toBeUndefined();
  });

  it("leaves pages outside the methodology out", () => {
    expect(readingNeighbour("/admin-panel", "next", principal(["admin"]))).toBeUndefined();
    expect(readingCandidates("/", "next")).toEqual([]);
  });

  it("lists every later (or earlier) page as a candidate: with limited roles and panel restrictions any page may be closed", () => {
    const later = readingCandidates("/etapas-processo", "next").map((route) => route.path);
    expect(later.slice(0, 2)).toEqual(["/templates", "/playbook-produtos"]);
    expect(later).toContain("/comite-ia");
    expect(readingCandidates("/5ps", "previous")[0]?.path).toBe("/ai-first-fast-track");
  });

  it("a limited reader's neighbour skips the pages their roles do not grant; a restriction replaces the default", () => {
    const limited = { userId: "u", email: "", name: "", roles: [], grantedPaths: new Set(["/5ps", "/faq"]), limited: true };
    expect(readingNeighbour("/5ps", "next", limited)?.path).toBe("/faq");
    expect(decideAccess(findRoute("/templates")!, limited)).toBe("deny");
    expect(decideAccess(findRoute("/novidades")!, limited)).toBe("allow");
    const restricted = {
      ...limited,
      limited: false,
      roles: ["visualizador"],
      overridden: new Set(["/faq"]),
      audiencePaths: new Set<string>(),
    };
    expect(decideAccess(findRoute("/faq")!, restricted)).toBe("deny");
    expect(decideAccess(findRoute("/templates")!, restricted)).toBe("allow");
    const admin = { ...restricted, roles: ["admin"], overridden: new Set(["/comite-ia"]), audiencePaths: new Set(["/comite-ia"]) };
    expect(decideAccess(findRoute("/comite-ia")!, admin)).toBe("allow");
  });
});
