import { eq } from "drizzle-orm";
import { trailProgress } from "../../../db/schema/index.ts";
import type { TrailState } from "../trail.ts";
import type { Db } from "./db.ts";

/** The trail saved on the user's account, or null. */
export function readTrail(db: Db, userId: string): TrailState | null {
  const row = db.select().from(trailProgress).where(eq(trailProgress.userId, userId)).get();
  if (!row) return null;
  try {
    return { ...(JSON.parse(row.data) as Omit<TrailState, "updatedAt">), updatedAt: row.updatedAt };
  } catch {
    return null;
  }
}

export function saveTrail(db: Db, userId: string, state: TrailState): void {
  const { updatedAt, ...data } = state;
  db.insert(trailProgress)
    .values({ userId, data: JSON.stringify(data), updatedAt })
    .onConflictDoUpdate({ target: trailProgress.userId, set: { data: JSON.stringify(data), updatedAt } })
    .run();
}
