/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in person, resolved once per request (gate or middleware); null when anonymous. */
    principal: import("./lib/routes").Principal | null;
    /** The current session's id, when signed in. */
    sessionId: string | null;
    /** Client address (X-Forwarded-For only when TRUST_PROXY is set). */
    clientIp: string | null;
    /** Resolves once the client has taken what was written (or left): streamed bodies await it per chunk. */
    clientDrained?: () => Promise<void>;
  }
}
