/**
 * The per-request metrics are kept in plain arrays (light-histogram.ts) instead of prom-client's
 * Histogram and Counter: what /metrics shows must be exactly what prom-client would have shown for
 * the same observations (bucket edges included: a value equal to a bound counts in that bucket).
 */
import client from "prom-client";
import { describe, expect, it } from "vitest";
import { LightHistogram, registerLight } from "../../../src/server/observability/light-histogram";

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const OBSERVED: [string, string, number][] = [
  ["page", "200", 0.0004],
  ["page", "200", 0.001],
  ["page", "200", 0.0025],
  ["page", "200", 0.0031],
  ["page", "200", 7],
  ["api", "401", 0.005],
  ["api", "401", 0.25],
  ["page", "200", 1],
  ["other", "404", 0],
];

describe("the light histogram", () => {
  it("exposes the same text as prom-client's Histogram and Counter for the same observations", async () => {
    const reference = new client.Registry();
    const counter = new client.Counter({
      name: "x_requests_total",
      help: "Requisições.",
      labelNames: ["route_class", "status"],
      registers: [reference],
    });
    const histogram = new client.Histogram({
      name: "x_duration_seconds",
      help: "Duração.",
      labelNames: ["route_class", "status"],
      buckets: BOUNDS,
      registers: [reference],
    });
    const unlabelled = new client.Histogram({ name: "x_check_seconds", help: "Verificação.", buckets: BOUNDS, registers: [reference] });

    const light = new client.Registry();
    const duration = new LightHistogram("x_duration_seconds", "Duração.", BOUNDS);
    registerLight(light, duration.counter("x_requests_total", "Requisições."));
    registerLight(light, duration);
    const check = new LightHistogram("x_check_seconds", "Verificação.", BOUNDS);
    registerLight(light, check);
    const checkSeries = check.series();

    const series = new Map<string, ReturnType<LightHistogram["series"]>>();
    for (const [routeClass, status, seconds] of OBSERVED) {
      const labels = { route_class: routeClass, status };
      counter.inc(labels);
      histogram.observe(labels, seconds);
      unlabelled.observe(seconds);
      const key = `${routeClass}:${status}`;
      if (!series.has(key)) series.set(key, duration.series(labels));
      duration.observe(series.get(key)!, seconds);
      check.observe(checkSeries, seconds);
    }
    const expected = await reference.metrics();
    expect(expected).toContain('x_duration_seconds_bucket{le="0.001",route_class="page",status="200"} 2');
    expect(await light.metrics()).toBe(expected);
  });

  it("shows an unlabelled histogram's zero series before any observation, as prom-client does", async () => {
    const reference = new client.Registry();
    new client.Histogram({ name: "x_idle_seconds", help: "Nada ainda.", buckets: [0.1, 1], registers: [reference] });
    const light = new client.Registry();
    const idle = new LightHistogram("x_idle_seconds", "Nada ainda.", [0.1, 1]);
    idle.series();
    registerLight(light, idle);
    expect(await light.metrics()).toBe(await reference.metrics());
  });
});
