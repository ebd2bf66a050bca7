import { describe, expect, it } from "vitest";
import {
  accessDecisionNote,
  formatDateTime,
  prettyDetails,
  roleLabel,
  rolePagesLabel,
  truncateDetails,
} from "../../../src/lib/admin/labels";
import type { ChecklistPage } from "../../../src/lib/admin/types";
import { auditActionLabel } from "../../../src/lib/audit/actions";

describe("admin labels", () => {
  it("names system roles in Portuguese and shows others as they are", () => {
    expect(["admin", "lider", "visualizador", "auditoria"].map(roleLabel)).toEqual(["Administrador", "Líder", "Visualizador", "auditoria"]);
  });

  it("formats times as dd/MM/yyyy HH:mm:ss in São Paulo", () => {
    expect(formatDateTime(Date.UTC(2026, 0, 5, 2, 3, 4), "America/Sao_Paulo")).toBe("04/01/2026 23:03:04");
  });

  it("truncates details and labels unknown actions raw", () => {
    expect(truncateDetails("x".repeat(100), 10)).toBe("xxxxxxxxx…");
    expect(truncateDetails(null)).toBe("-");
    expect(auditActionLabel("admin_user_created")).toBe("Usuário Criado");
    expect(auditActionLabel("algo_novo")).toBe("algo_novo");
  });

  it("pretty-prints details JSON and shows other text as it is", () => {
    expect(prettyDetails('{"a":1,"b":[2]}')).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    expect(prettyDetails("não é json")).toBe("não é json");
  });

  it("says 'Todas' for a role opening every page of the checklist, else the real count (Visualizador: the content pages)", () => {
    const checklist: ChecklistPage[] = [
      { id: 1, name: "FAQ", path: "/faq", kind: "signed-in", group: "conteudo", audience: "", restricted: false },
      { id: 2, name: "Comitê de IA", path: "/comite-ia", kind: "grantable", group: "restritas", audience: "", restricted: false },
      { id: 3, name: "Painel", path: "/admin-panel", kind: "fixed", group: "administracao", audience: "", restricted: false },
    ];
    expect(rolePagesLabel({ openPageCount: 3 }, checklist)).toBe("Todas");
    expect(rolePagesLabel({ openPageCount: 1 }, checklist)).toBe("1");
    expect(rolePagesLabel({ openPageCount: 0 }, [])).toBe("0");
  });

  it("names the role behind an access row in Portuguese, and nothing for other or older rows", () => {
    expect(accessDecisionNote("page_access_granted", '{"path":"/comite-ia","grantedBy":["lider","convidados"]}')).toBe(
      "Liberado por: Líder, convidados",
    );
    expect(accessDecisionNote("page_access_denied", '{"requiredRoles":["lider","admin","convidados"]}')).toBe(
      "Exige: Líder, Administrador ou convidados",
    );
    expect(accessDecisionNote("page_access_denied", '{"requiredRoles":["admin"]}')).toBe("Exige: Administrador");
    expect(accessDecisionNote("page_access_denied", '{"path":"/comite-ia","roles":[]}')).toBeNull();
    expect(accessDecisionNote("admin_user_created", '{"grantedBy":["admin"]}')).toBeNull();
    expect(accessDecisionNote("page_access_granted", "não é json")).toBeNull();
  });
});
