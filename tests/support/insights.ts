import type { Db } from "../../src/lib/server/data/db";
import { insightsKey, QUERY_TEXT_KEY } from "../../src/lib/server/insights/keys";
import { queryHash } from "../../src/lib/server/insights/store";

/** What the rows hold for a query's text (a keyed hash under INSIGHTS_KEY: issue 62), as the portal computes it. */
export async function storedQuery(db: Db, text: string): Promise<string> {
  return queryHash(await insightsKey(db, QUERY_TEXT_KEY), text);
}
