/**
 * The interactive trail's progress saved on the account (the shape and its rules live in src/lib/trail/).
 */
import { eq } from "drizzle-orm";
import { trailProgress } from "../../../../db/schema/index.ts";
import type { TrailState } from "../../trail/trail.ts";
import type { Db } from "../data/db.ts";

/** The trail saved on the user's account, or null. */
export async function readTrail(db: Db, userId: string): Promise<TrailState | null> {
  const row = (await db.select().from(trailProgress).where(eq(trailProgress.userId, userId)))[0];
  if (!row) return null;
  try {
    return { ...(JSON.parse(row.data) as Omit<TrailState, "updatedAt">), updatedAt: row.updatedAt };
  } catch {
    return null;
  }
}

export async function saveTrail(db: Db, userId: string, state: TrailState): Promise<void> {
  const { updatedAt, ...data } = state;
  await db
    .insert(trailProgress)
    .values({ userId, data: JSON.stringify(data), updatedAt })
    .onConflictDoUpdate({ target: trailProgress.userId, set: { data: JSON.stringify(data), updatedAt } });
}
