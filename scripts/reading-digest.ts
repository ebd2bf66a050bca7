/**
 * Sends this week's required-reading reminders now: `npm run reading:digest`. The same run as the
 * server's weekly pass (src/server/maintenance.ts), without waiting for Monday 09:00; whatever was
 * already sent this ISO week (by the server, another instance or an earlier run) is not sent again.
 * Reads the build's dist/reading.json (B1_DIST_DIR) and the database of DATABASE_URL / DATABASE_PATH.
 *
 * A mail whose outcome is unknown (the connection to the mail server dropped after the message
 * went out, so the server may have stored it) is never sent again by the weekly pass: it is
 * counted as "sem confirmação". After checking the mail server's log, the operator resends this
 * week's with `npm run reading:digest -- --reenviar-falhas`.
 */
import { parseArgs } from "node:util";
import { config } from "../src/lib/server/config/config.ts";
import { closeDatabase, getMigratedDb } from "../src/lib/server/data/db.ts";
import { writerKeyRefusal } from "../src/lib/server/audit/without-key.ts";
import { resendFailedDigests, sendReadingDigests, UNREACHABLE_STOP, type DigestRun } from "../src/lib/server/reading/digest.ts";
import { isoWeekOf } from "../src/lib/server/reading/digest-week.ts";
import { readingManifest, readingManifestPath } from "../src/lib/server/reading/manifest.ts";

// A setting that cannot work (an SMTP_URL that is not an address) stops the run before anyone is claimed.
let settings: ReturnType<typeof config>;
try {
  settings = config();
} catch (error) {
  console.error(`Erro: ${error instanceof Error ? error.message : String(error)}.`);
  process.exit(1);
}
const { publicUrl, tzDisplay } = settings;
let resend = false;
try {
  resend = parseArgs({ options: { "reenviar-falhas": { type: "boolean" } } }).values["reenviar-falhas"] === true;
} catch {
  console.error("Erro: opção desconhecida. Uso: npm run reading:digest [-- --reenviar-falhas]");
  process.exit(1);
}
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
    const run: DigestRun = await (resend ? resendFailedDigests : sendReadingDigests)(db, { week, publicUrl });
    const counts = `${run.sent} enviados, ${run.failed} falhas, ${run.uncertain} sem confirmação do servidor`;
    console.log(
      resend
        ? `Reenvio do lembrete semanal ${week}: ${counts} (${run.examined} envios marcados como falha verificados).`
        : `Lembrete semanal ${week}: ${counts} (${run.examined} pessoas sem lembrete nesta semana verificadas).`,
    );
    if (run.stoppedUnreachable)
      console.log(
        `O servidor de e-mail não respondeu a ${UNREACHABLE_STOP} envios seguidos: a passada parou aqui. Quem ficou sem lembrete o recebe na próxima passada (confira SMTP_URL e o servidor de e-mail).`,
      );
    if (run.uncertain)
      console.log(
        `ATENÇÃO: ${run.uncertain} mensagens podem ter sido entregues (a conexão caiu antes da resposta do servidor) e não serão enviadas de novo automaticamente. Confira o log do servidor de e-mail e, se não chegaram, reenvie com: npm run reading:digest -- --reenviar-falhas`,
      );
    if (run.failed || run.uncertain) process.exitCode = 1;
  }
} finally {
  await closeDatabase(db);
}
