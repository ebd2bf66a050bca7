/** /novidades on the server: the build's list of content changes and each person's last visit. */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { readingNewsVisits } from "../../../../db/schema/index.ts";
import { NEWS_MANIFEST_FILE, type NewsManifest } from "../../reading/news.ts";
import type { Db } from "../data/db.ts";
import { distDir } from "../../settings.ts";

let loaded: NewsManifest | undefined;

/** The changes of this build, read once (a new build starts a new process); none before the first build. */
export function newsManifest(): NewsManifest {
  if (!loaded) {
    const file = path.join(distDir(), NEWS_MANIFEST_FILE);
    loaded = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as NewsManifest) : { items: [] };
  }
  return loaded;
}

/** Records that the person opened /novidades now; returns when they had opened it before (null: never). */
export async function recordNewsVisit(db: Db, userId: string, now = Date.now()): Promise<number | null> {
  const [previous] = await db
    .select({ seenAt: readingNewsVisits.seenAt })
    .from(readingNewsVisits)
    .where(eq(readingNewsVisits.userId, userId));
  await db
    .insert(readingNewsVisits)
    .values({ userId, seenAt: now })
    .onConflictDoUpdate({ target: readingNewsVisits.userId, set: { seenAt: now } });
  return previous?.seenAt ?? null;
}
