/** What a piece of code asks the database, and how the database plans it (both engines): for query-plan tests. */
import { pgPool, sqliteClient, type Db } from "../../src/lib/server/data/db";

export interface Sent {
  sql: string;
  params: unknown[];
}

/** Records every statement `work` sends through `db`'s driver, with its parameters. */
export async function statementsOf(db: Db, work: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const sqlite = sqliteClient(db);
  if (sqlite) {
    const prepare = sqlite.prepare;
    sqlite.prepare = ((source: string) => {
      const statement = prepare.call(sqlite, source);
      const record =
        (method: "all" | "get" | "run" | "iterate") =>
        (...params: unknown[]) => {
          sent.push({ sql: source, params });
          return (statement[method] as (...args: unknown[]) => unknown).apply(statement, params);
        };
      const proxy: object = new Proxy(statement, {
        get(target, key) {
          if (key === "all" || key === "get" || key === "run" || key === "iterate") return record(key);
          if (key === "raw") return (...toggle: [boolean?]) => (target.raw(...(toggle as [boolean])), proxy);
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return proxy;
    }) as typeof sqlite.prepare;
    try {
      await work();
    } finally {
      sqlite.prepare = prepare;
    }
    return sent;
  }
  const pool = pgPool(db)!;
  const query = pool.query;
  pool.query = ((config: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
    if (typeof config === "string") sent.push({ sql: config, params: values ?? [] });
    else sent.push({ sql: config.text, params: config.values ?? values ?? [] });
    return (query as (...args: unknown[]) => unknown).call(pool, config, values);
  }) as typeof pool.query;
  try {
    await work();
  } finally {
    pool.query = query;
  }
  return sent;
}

/** The plan of one recorded statement, one line per step. */
export async function planOf(db: Db, statement: Sent): Promise<string[]> {
  const sqlite = sqliteClient(db);
  if (sqlite) {
    const rows = sqlite.prepare(`explain query plan ${statement.sql}`).all(...(statement.params as never[])) as { detail: string }[];
    return rows.map((row) => row.detail);
  }
  const result = await pgPool(db)!.query<{ "QUERY PLAN": string }>(`explain ${statement.sql}`, statement.params);
  return result.rows.map((row) => row["QUERY PLAN"]);
}
