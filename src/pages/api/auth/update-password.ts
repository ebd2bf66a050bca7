import type { APIRoute } from "astro";
import { eq, isNull, and } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../../../db/schema/index";
import { updatePasswordSchema } from "../../../lib/forms";
import { writeAuditLog } from "../../../lib/server/audit";
import { getDb } from "../../../lib/server/db";
import { consumeEmailToken } from "../../../lib/server/email-tokens";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { hashPassword } from "../../../lib/server/password";
import { consumeRateLimit, LIMITS, RATE_LIMIT_MESSAGE } from "../../../lib/server/rate-limit";
import { invalidateUserSessions } from "../../../lib/server/session";

export const prerender = false;

const bodySchema = z.intersection(updatePasswordSchema, z.object({ token: z.string().min(1).max(100) }));

/** New password from the reset link: single-use token, every session of the user ended. */
export const POST: APIRoute = async ({ request, locals }) => {
  const db = getDb();
  const meta = requestMeta(locals, request);
  if (!consumeRateLimit(`password-update:ip:${locals.clientIp}`, LIMITS.passwordUpdateIp)) {
    return jsonResponse(429, { error: RATE_LIMIT_MESSAGE, code: "rate_limited" });
  }
  const parsed = await parseJsonBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  const passwordHash = await hashPassword(parsed.data.password);
  const result = consumeEmailToken(db, parsed.data.token, "password_reset");
  if (!result.ok) return jsonResponse(400, { error: "Link inválido ou expirado", code: "link_expired" });
  db.transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, result.userId)).run();
    // Following the e-mailed link proves the address too.
    tx.update(users)
      .set({ emailConfirmedAt: Date.now() })
      .where(and(eq(users.id, result.userId), isNull(users.emailConfirmedAt)))
      .run();
    writeAuditLog(tx, { userId: result.userId, actionType: "password_reset_success", result: "success", ...meta });
  });
  invalidateUserSessions(db, result.userId);
  return jsonResponse(200, { ok: true });
};
