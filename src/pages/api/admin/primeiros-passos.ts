import type { APIRoute } from "astro";
import { firstSteps, readBackupRecord } from "../../../lib/server/admin/first-steps";
import { config } from "../../../lib/server/config/config";
import { engineOfDb, getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** 'Primeiros passos': what this portal still runs on (read now, not at start), for the admin overview. */
export const GET: APIRoute = ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const settings = config();
  const postgres = engineOfDb(getDb()) === "postgres";
  const lastBackup = postgres ? null : readBackupRecord(settings.databasePath);
  return jsonResponse(200, { passos: firstSteps({ config: settings, postgres, lastBackup, now: new Date() }) });
};
