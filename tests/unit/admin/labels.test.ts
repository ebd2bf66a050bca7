import { describe, expect, it } from "vitest";
import { formatDateTime, prettyDetails, roleLabel, truncateDetails } from "../../../src/lib/admin/labels";
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
});
