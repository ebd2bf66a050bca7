/**
 * The report's totals counted in one grouped pass (tally-count.ts) against a count made person by
 * person with the gate's own rule (mustRead over each person's principal): every page, every
 * version, every role, on a mixed population — people holding several roles or none, a custom role
 * granted the committee page and one granted nothing, deactivated and unconfirmed accounts,
 * confirmations of older, current, several and newer-than-current versions. Both engines.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertScaleUsers } from "../../../scripts/bench/scale-data";
import { readingConfirmations, roles, userRoles, users } from "../../../db/schema/index";
import { mustRead } from "../../../src/lib/reading/pending";
import type { RequiredPage } from "../../../src/lib/reading/required-page";
import { createCustomRole } from "../../../src/lib/server/admin/roles";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { audienceOf, loadAccessData, principalsOf } from "../../../src/lib/server/reading/audience";
import { countTallies, tallyOf } from "../../../src/lib/server/reading/tally-count";
import { requiredPage } from "../../support/reading-dist";
import { openOwnTestDatabase } from "../../support/users";

const PEOPLE = 240;
const PAGES: RequiredPage[] = [
  requiredPage("/sobre-b1", "Sobre a B1", 2),
  requiredPage("/glossario", "Glossário", 3),
  requiredPage("/faq", "Perguntas Frequentes", 2, ["lider"]),
  requiredPage("/5ps", "Os 5 Ps", 1, ["lider", "security"]),
  requiredPage("/comite-ia", "Comitê de IA", 2),
];
const ROLE_CHOICES = ["visualizador", "lider", "admin", "security", "convidado-comite", "sem-paginas"];

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let db: Db;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-tallies-"));
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  expect((await createCustomRole(db, { name: "convidado-comite", description: "", pagePaths: ["/comite-ia"] })).ok).toBe(true);
  expect((await createCustomRole(db, { name: "sem-paginas", description: "", pagePaths: [] })).ok).toBe(true);
  const roleIds = new Map((await db.select({ id: roles.id, name: roles.name }).from(roles)).map((role) => [role.name, role.id]));
  const random = generator(20261127);
  const ids = await insertScaleUsers(db, PEOPLE);
  // Everyone starts as visualizador (insertScaleUsers); some lose it, most gain zero to two more roles.
  const dropped = ids.filter(() => random() < 0.15);
  if (dropped.length) await db.delete(userRoles).where(inArray(userRoles.userId, dropped));
  const held: { userId: string; roleId: number }[] = [];
  for (const userId of ids)
    for (const name of ROLE_CHOICES.slice(1)) if (random() < 0.22) held.push({ userId, roleId: roleIds.get(name)! });
  await db.insert(userRoles).values(held);
  const deactivated = ids.filter(() => random() < 0.1);
  await db.update(users).set({ deactivatedAt: Date.now() }).where(inArray(users.id, deactivated));
  const unconfirmed = ids.filter(() => random() < 0.05);
  await db.update(users).set({ emailConfirmedAt: null }).where(inArray(users.id, unconfirmed));
  const confirmations: { userId: string; pagePath: string; version: number; confirmedAt: number }[] = [];
  for (const userId of ids)
    for (const page of PAGES)
      for (let version = 1; version <= page.version + 1; version++)
        if (random() < 0.35) confirmations.push({ userId, pagePath: page.path, version, confirmedAt: Date.now() });
  await db.insert(readingConfirmations).values(confirmations);
}, 120_000);

afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The totals counted person by person: each active account's principal through mustRead. */
async function countedOneByOne() {
  const people = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, confirmed: users.emailConfirmedAt, gone: users.deactivatedAt })
    .from(users);
  const active = people.filter((person) => person.confirmed !== null && person.gone === null);
  const principals = await principalsOf(db, active);
  const roleNames = new Map((await db.select({ id: roles.id, name: roles.name }).from(roles)).map((role) => [role.id, role.name]));
  const heldBy = new Map<string, string[]>();
  for (const row of await db.select().from(userRoles))
    heldBy.set(row.userId, [...(heldBy.get(row.userId) ?? []), roleNames.get(row.roleId)!]);
  const newest = new Map<string, number>();
  for (const row of await db.select().from(readingConfirmations)) {
    const key = `${row.userId}|${row.pagePath}`;
    newest.set(key, Math.max(newest.get(key) ?? 0, row.version));
  }
  return PAGES.flatMap((page) =>
    Array.from({ length: page.version }, (_, index) => {
      const version = index + 1;
      const audience = active.filter((person) => mustRead(page, principals.get(person.id)!));
      const confirmed = (id: string) => (newest.get(`${id}|${page.path}`) ?? 0) >= version;
      const perfis = [...new Set(audience.flatMap((person) => heldBy.get(person.id) ?? []))].sort().map((perfil) => {
        const holders = audience.filter((person) => heldBy.get(person.id)?.includes(perfil));
        return { perfil, publico: holders.length, confirmadas: holders.filter((person) => confirmed(person.id)).length };
      });
      return {
        pagina: page.path,
        versao: version,
        publico: audience.length,
        confirmadas: audience.filter((p) => confirmed(p.id)).length,
        perfis,
      };
    }),
  );
}

describe("reading report totals, counted in one grouped pass", () => {
  it("equal the person-by-person count for every page, version and role", async () => {
    const access = await loadAccessData(db);
    const counts = await countTallies(db, PAGES, access);
    const grouped = PAGES.flatMap((page) =>
      Array.from({ length: page.version }, (_, index) => {
        const tally = tallyOf(counts, page, index + 1);
        return {
          pagina: tally.pagina,
          versao: tally.versao,
          publico: tally.publico,
          confirmadas: tally.confirmadas,
          perfis: tally.perfis
            .map(({ perfil, publico, confirmadas }) => ({ perfil, publico, confirmadas }))
            .sort((a, b) => a.perfil.localeCompare(b.perfil)),
        };
      }),
    );
    const expected = await countedOneByOne();
    expect(grouped).toEqual(expected);
    // The data is mixed enough to mean something: restricted pages have smaller audiences, some confirmed, some not.
    for (const row of expected) expect(row.confirmadas).toBeGreaterThan(0);
    for (const row of expected) expect(row.confirmadas).toBeLessThan(row.publico);
    expect(expected.find((row) => row.pagina === "/faq")!.publico).toBeLessThan(expected[0]!.publico);
    expect(expected.find((row) => row.pagina === "/comite-ia")!.perfis.map((role) => role.perfil)).toContain("convidado-comite");
  });

  it("counts pages with the same audience together", async () => {
    const access = await loadAccessData(db);
    const audiences = new Set(PAGES.map((page) => JSON.stringify(audienceOf(page, access))));
    // /sobre-b1 and /glossario share everyone; /faq, /5ps and /comite-ia have their own.
    expect(audiences.size).toBe(4);
    const [lider] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, "lider"));
    expect(audienceOf(PAGES[2]!, access)).toEqual({ opening: null, asked: [lider!.id] });
  });
});
