/**
 * Worker-thread entry (bundled to dist/gate/reading-worker.mjs): counts the reading report's totals
 * (tallies.ts) on its own read-only SQLite connection. A count reads every reader of a page — a
 * second or more at 100,000 people — and better-sqlite3 is synchronous: on the gate's thread it
 * would stall every request meanwhile.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openReadOnlyDatabase } from "../lib/server/data/db.ts";
import { loadAccessData } from "../lib/server/reading/audience.ts";
import { requiredPage } from "../lib/server/reading/manifest.ts";
import { countTally, type TallyReply, type TallyRequest } from "../lib/server/reading/tallies.ts";

const db = openReadOnlyDatabase((workerData as { databasePath: string }).databasePath);
const port = parentPort!;

port.on("message", async (request: TallyRequest) => {
  let reply: TallyReply;
  try {
    const page = requiredPage(request.pagePath);
    if (!page) throw new Error(`página ${request.pagePath} fora do manifesto`);
    reply = { id: request.id, ok: true, tally: await countTally(db, page, request.version, await loadAccessData(db)) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: String(error) };
  }
  port.postMessage(reply);
});
