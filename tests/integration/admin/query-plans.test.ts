/**
 * Index-shaped queries at scale: every audit filter, the audit log's first and next page, the
 * admin user search and list, the access matrix and the role list run against a database filled
 * by seed:scale (with ANALYZE, so the planner costs real sizes); each statement they send is
 * explained (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL) and none may read the whole
 * audit or users table, nor sort more than a few found rows of them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScale } from "../../../scripts/seed-scale";
import { buildAccessMatrix, userAccess } from "../../../src/lib/server/admin/access-matrix";
import { listRoles } from "../../../src/lib/server/admin/roles";
import { listUsersPage } from "../../../src/lib/server/admin/user-list";
import { auditFilterSchema, queryAuditLogs } from "../../../src/lib/server/audit/query";
import { AUDIT_FILTERS } from "../../../scripts/bench/scale";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { planOf, statementsOf, type Sent } from "../../support/query-plans";
import { openOwnTestDatabase } from "../../support/users";

const USERS = 20_000;
const AUDIT_ROWS = 200_000;
/** A sort of more rows than this (PostgreSQL's estimate) reads far more than one page. */
const SORTED_ROWS_MAX = 2_000;

/**
 * Steps that read a whole big table, per engine's wording: a table scan; on SQLite also a walk
 * through a (non-covering) index with no LIMIT to stop it; a sort of audit or user rows, except
 * the rows of a few named users (their own index ranges, merged).
 */
function fullReads(statement: Sent, plan: string[]): string[] {
  const onBigTable = /"(audit_logs|users)"|\b(audit_logs|users) /.test(statement.sql);
  const limited = /\blimit\b/i.test(statement.sql);
  const fewUsers = plan.some((step) => /SEARCH audit_logs USING INDEX audit_logs_user_created_idx \(user_id=\?\)/.test(step));
  return plan.filter(
    (step) =>
      /^\s*SCAN (audit_logs|users)\b(?! USING (COVERING )?INDEX)/.test(step) ||
      (!limited && /^\s*SCAN (audit_logs|users) USING INDEX/.test(step)) ||
      /Seq Scan on (audit_logs|users)\b/.test(step) ||
      (onBigTable && !fewUsers && /USE TEMP B-TREE FOR ORDER BY/.test(step)) ||
      // PostgreSQL costs each sort: one of a few index-found rows is fine, one of many is the sort of a table.
      (onBigTable && Number(/\bSort\s+\(cost=[\d.]+ rows=(\d+)/.exec(step)?.[1] ?? 0) > SORTED_ROWS_MAX),
  );
}

describe("query plans at scale", () => {
  let db: Db;
  let dir: string;
  const scenarios: Record<string, (db: Db) => Promise<unknown>> = {};
  for (const [name, query] of Object.entries(AUDIT_FILTERS)) {
    const filter = auditFilterSchema.parse(Object.fromEntries(new URLSearchParams(query)));
    scenarios[`auditoria: ${name}`] = (db) => queryAuditLogs(db, filter, "America/Sao_Paulo");
  }
  scenarios["auditoria: página seguinte"] = async (db) => {
    const first = await queryAuditLogs(db, auditFilterSchema.parse({}), "America/Sao_Paulo");
    return queryAuditLogs(db, auditFilterSchema.parse({ cursor: first.nextCursor! }), "America/Sao_Paulo");
  };
  // Two-factor on, so the page's "Duas etapas" lookup is explained too.
  const twoFactor = { key: Buffer.alloc(32), requiredRoles: ["admin"] };
  scenarios["usuários: busca"] = (db) => listUsersPage(db, { search: "pessoa 9999", role: "", page: 1 }, twoFactor);
  scenarios["usuários: primeira página"] = (db) => listUsersPage(db, { search: "", role: "", page: 1 }, twoFactor);
  scenarios["usuários: por perfil"] = (db) => listUsersPage(db, { search: "", role: "admin", page: 1 }, twoFactor);
  scenarios["matriz de acesso"] = (db) => buildAccessMatrix(db);
  scenarios["matriz de acesso: páginas de um usuário"] = async (db) =>
    userAccess(db, (await listUsersPage(db, { search: "pessoa 77", role: "", page: 1 }, twoFactor)).users[0]!.id);
  scenarios["lista de perfis"] = (db) => listRoles(db);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-plans-"));
    ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
    await seedScale(db, { users: USERS, audit: AUDIT_ROWS, sessions: 0 });
  }, 120_000);
  afterAll(async () => {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`${name}: no full read of audit_logs or users`, async () => {
      const statements = await statementsOf(db, () => scenario(db));
      expect(statements.length).toBeGreaterThan(0);
      const offending: string[] = [];
      for (const statement of statements.filter((s) => /^\s*select/i.test(s.sql))) {
        const plan = await planOf(db, statement);
        if (fullReads(statement, plan).length) offending.push(`${statement.sql}\n  ${plan.join("\n  ")}`);
      }
      expect(offending, offending.join("\n\n")).toEqual([]);
    });
  }
});
