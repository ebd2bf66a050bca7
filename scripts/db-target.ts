/** Which database the CLI scripts work on, and how to name it in their output without its password. */
import { engineOf } from "../db/schema/index.ts";
import { config } from "../src/lib/server/config/config.ts";

/** `DATABASE_URL` when it is a postgres:// address, else the SQLite file of `DATABASE_PATH`. */
export function configuredTarget(): string {
  const url = process.env.DATABASE_URL;
  return url && engineOf(url) === "postgres" ? url : config().databasePath;
}

/** The target as it may be printed: a URL's password becomes `***`. */
export function printableTarget(target: string): string {
  if (engineOf(target) !== "postgres") return target;
  try {
    const url = new URL(target);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "postgres://(endereço inválido)";
  }
}

/** An error as one line for the operator: drizzle wraps the driver's reason (refused, auth) in `cause`. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : "";
  const message = error.message.split("\n")[0] ?? "";
  return cause && !message.includes(cause) ? `${cause} (${message})` : message;
}
