/**
 * Platform: process-level tools with no domain knowledge — hashing and constant-time comparison
 * (this file), the logger, file listing, the server's pid file, IP masking and client networks, and
 * zod's Portuguese messages.
 */
import { hash, timingSafeEqual } from "node:crypto";

/** SHA-256 of a UTF-8 string (node:crypto's one-shot native hash: it runs on every request through the gate). */
export function sha256(text: string): Uint8Array {
  return hash("sha256", text, "buffer");
}

/** SHA-256 of a UTF-8 string as lower-case hex, straight from the native hash (no copy through a buffer). */
export function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
}

/** Constant-time equality of two byte strings; different lengths are simply unequal. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
