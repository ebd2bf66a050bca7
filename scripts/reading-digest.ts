/**
 * Sends this week's required-reading reminders now: `npm run reading:digest`. The same run as the
 * server's weekly pass (src/server/maintenance.ts), without waiting for Monday 09:00; whatever was
 * already sent this ISO week (by the server, another instance or an earlier run) is not sent again.
 * Reads the build's dist/reading.json (B1_DIST_DIR) and the database of DATABASE_URL / DATABASE_PATH.
 */
import { config } from "../src/lib/server/config/config.ts";
import { closeDatabase, getMigratedDb } from "../src/lib/server/data/db.ts";
import { writerKeyRefusal } from "../src/lib/server/audit/without-key.ts";
import { sendReadingDigests } from "../src/lib/server/reading/digest.ts";
import { isoWeekOf } from "../src/lib/server/reading/digest-week.ts";
import { readingManifest, readingManifestPath } from "../src/lib/server/reading/manifest.ts";

const { publicUrl, tzDisplay } = config();
const db = await getMigratedDb();
try {
  const refusal = await writerKeyRefusal(db);
  if (refusal) {
    console.error(`Erro: ${refusal}.`);
    process.exitCode = 1;
  } else if (!readingManifest().pages.length) {
    console.log(`Nenhuma página de leitura obrigatória em ${readingManifestPath()} (rode npm run build): nada a enviar.`);
  } else {
    const week = isoWeekOf(Date.now(), tzDisplay);
    const run = await sendReadingDigests(db, { week, publicUrl });
    console.log(
      `Lembrete semanal ${week}: ${run.sent} enviados, ${run.failed} falhas (${run.examined} pessoas sem lembrete nesta semana verificadas).`,
    );
    if (run.failed) process.exitCode = 1;
  }
} finally {
  await closeDatabase(db);
}
