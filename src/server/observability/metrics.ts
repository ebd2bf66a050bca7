import client from "prom-client";
import { count, gt } from "drizzle-orm";
import { sessions } from "../../../db/schema/index.ts";
import type { Db } from "../../lib/server/data/db.ts";
import type { PageTemplate } from "../../lib/server/content/static-files.ts";
import type { RouteClass } from "./route-class.ts";
import { LightHistogram, registerLight, type Series } from "./light-histogram.ts";

export type SignInOutcome = "success" | "failure" | "blocked";

export interface MetricsOptions {
  db: Db;
  pages: Map<string, PageTemplate>;
}

export interface Metrics {
  registry: client.Registry;
  observeRequest(routeClass: RouteClass, status: number, seconds: number): void;
  /** Sign-in outcome from the sign-in endpoint's status: 200 success, 429 blocked, other errors failure. */
  observeSignIn(status: number): void;
  observeSessionCheck(seconds: number): void;
}

/** Latency buckets for whole requests: from a page held in memory to an Argon2 sign-in. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** The session check is one prepared statement: microseconds, unless the database stalls. */
const SESSION_CHECK_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.01, 0.05, 0.25];

export function signInOutcomeOf(status: number): SignInOutcome | null {
  if (status === 200) return "success";
  if (status === 429) return "blocked";
  return status >= 400 ? "failure" : null;
}

/** One registry per server: default process metrics (memory, event-loop lag) plus the portal's own. */
export function createMetrics({ db, pages }: MetricsOptions): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // The two per-request metrics: plain arrays (light-histogram.ts), one series per class and status.
  const duration = new LightHistogram(
    "b1_http_request_duration_seconds",
    "Duração das requisições, por classe de rota e status.",
    REQUEST_BUCKETS,
  );
  registerLight(registry, duration.counter("b1_http_requests_total", "Requisições respondidas, por classe de rota e status."));
  registerLight(registry, duration);
  const signIns = new client.Counter({
    name: "b1_sign_in_attempts_total",
    help: "Tentativas de login por resultado (success, failure, blocked).",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of ["success", "failure", "blocked"] as const) signIns.inc({ outcome }, 0);
  const sessionCheck = new LightHistogram(
    "b1_session_check_duration_seconds",
    "Tempo da verificação de sessão do gate (consulta ao banco incluída).",
    SESSION_CHECK_BUCKETS,
  );
  registerLight(registry, sessionCheck);
  const sessionCheckSeries = sessionCheck.series();

  new client.Gauge({
    name: "b1_active_sessions",
    help: "Sessões não expiradas no banco (lido a cada coleta).",
    registers,
    async collect() {
      const [row] = await db.select({ n: count() }).from(sessions).where(gt(sessions.expiresAt, Date.now()));
      this.set(row?.n ?? 0);
    },
  });
  new client.Gauge({
    name: "b1_page_variant_cache_entries",
    help: "Variantes de página renderizadas guardadas em memória.",
    registers,
    collect() {
      let entries = 0;
      for (const page of pages.values()) entries += page.variantCount;
      this.set(entries);
    },
  });

  // One series per class and status, made on first use.
  const seriesSets = new Map<RouteClass, Map<number, Series>>();
  function seriesOf(routeClass: RouteClass, status: number): Series {
    let byStatus = seriesSets.get(routeClass);
    if (!byStatus) seriesSets.set(routeClass, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = duration.series({ route_class: routeClass, status: String(status) })));
    return series;
  }

  return {
    registry,
    observeRequest(routeClass, status, seconds) {
      duration.observe(seriesOf(routeClass, status), seconds);
    },
    observeSignIn(status) {
      const outcome = signInOutcomeOf(status);
      if (outcome) signIns.inc({ outcome });
    },
    observeSessionCheck(seconds) {
      sessionCheck.observe(sessionCheckSeries, seconds);
    },
  };
}
