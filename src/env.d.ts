/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in person, resolved once per request (gate or middleware); null when anonymous. */
    principal: import("./lib/routes").Principal | null;
    /** The current session's id, when signed in. */
    sessionId: string | null;
    /** Client address (X-Forwarded-For only when TRUST_PROXY is set). */
    clientIp: string | null;
    /** The request's id (`X-Request-Id`, set by the gate): on its log lines and its 500 answer. */
    requestId?: string;
    /** How the response's writing is going (set by the server): streamed bodies pace and reuse memory by it. */
    responseFlow?: import("./lib/server/audit/chunk-ring").ResponseFlow;
    /** Insights' counters of this instance (set by the gate; absent in `astro dev`). */
    insights?: import("./lib/server/insights/collector").InsightsCollector;
  }
}
