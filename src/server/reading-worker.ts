/**
 * Worker-thread entry (bundled to dist/gate/reading-worker.mjs): counts the reading report's totals
 * (tallies.ts) on its own read-only SQLite connection. A count reads every confirmation — seconds
 * at 100,000 people × 50 pages — and better-sqlite3 is synchronous: on the gate's thread it would
 * stall every request meanwhile.
 */
import "./harden.ts";
import { parentPort, workerData } from "node:worker_threads";
import { openReadOnlyDatabase } from "../lib/server/data/db.ts";
import { loadAccessData } from "../lib/server/reading/audience.ts";
import { readingManifest } from "../lib/server/reading/manifest.ts";
import { countTallies, type TallyReply, type TallyRequest } from "../lib/server/reading/tally-count.ts";

const db = openReadOnlyDatabase((workerData as { databasePath: string }).databasePath);
const port = parentPort!;

port.on("message", async (request: TallyRequest) => {
  let reply: TallyReply;
  try {
    reply = { id: request.id, ok: true, counts: await countTallies(db, readingManifest().pages, await loadAccessData(db)) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: String(error) };
  }
  port.postMessage(reply);
});
