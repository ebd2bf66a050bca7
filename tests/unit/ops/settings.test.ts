import { describe, expect, it } from "vitest";
import { logLevelFrom, wantsPrettyLogs } from "../../../src/lib/server/platform/logger";
import { signInOutcomeOf } from "../../../src/server/observability/metrics";
import { createRouteClassifier } from "../../../src/server/observability/route-class";
import { readObservabilitySettings } from "../../../src/server/observability/settings";

describe("operational settings", () => {
  it("default to no metrics endpoint, no metrics port, no drain and a 64 MB free-space floor", () => {
    expect(readObservabilitySettings({})).toEqual({
      ok: true,
      settings: { metricsToken: "", metricsPort: null, shutdownDrainMs: 0, readinessMinFreeBytes: 64 * 1024 * 1024 },
    });
  });

  it.each([
    [{ METRICS_TOKEN: "curto-demais" }, "METRICS_TOKEN precisa de pelo menos 24 caracteres"],
    [{ METRICS_PORT: "9464a" }, "METRICS_PORT deve ser um número de porta"],
    [{ METRICS_PORT: "70000" }, "METRICS_PORT deve ser um número de porta"],
    [{ SHUTDOWN_DRAIN_MS: "-1" }, "SHUTDOWN_DRAIN_MS deve ser um número"],
    [{ SHUTDOWN_DRAIN_MS: "10s" }, "SHUTDOWN_DRAIN_MS deve ser um número"],
    [{ READINESS_MIN_FREE_MB: "64MB" }, "READINESS_MIN_FREE_MB deve ser um número de megabytes"],
    [{ READINESS_MIN_FREE_MB: "-1" }, "READINESS_MIN_FREE_MB deve ser um número de megabytes"],
  ])("refuse %j with a Portuguese message", (env, message) => {
    const result = readObservabilitySettings(env);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(message);
  });

  it("read valid values", () => {
    const token = "a".repeat(32);
    expect(
      readObservabilitySettings({ METRICS_TOKEN: token, METRICS_PORT: "9464", SHUTDOWN_DRAIN_MS: "10000", READINESS_MIN_FREE_MB: "0" }),
    ).toEqual({
      ok: true,
      settings: { metricsToken: token, metricsPort: 9464, shutdownDrainMs: 10_000, readinessMinFreeBytes: 0 },
    });
  });

  it("take LOG_LEVEL only when it names a level, and pretty output on a terminal or when asked", () => {
    expect(logLevelFrom({ LOG_LEVEL: "DEBUG" })).toBe("debug");
    expect(logLevelFrom({ LOG_LEVEL: "verbose" })).toBe("info");
    expect(logLevelFrom({})).toBe("info");
    expect(wantsPrettyLogs({}, true)).toBe(true);
    expect(wantsPrettyLogs({}, false)).toBe(false);
    expect(wantsPrettyLogs({ LOG_PRETTY: "1" }, false)).toBe(true);
    expect(wantsPrettyLogs({ LOG_PRETTY: "0" }, true)).toBe(false);
  });

  it("count sign-in outcomes from the endpoint's status", () => {
    expect([200, 400, 401, 403, 413, 429, 302].map(signInOutcomeOf)).toEqual([
      "success",
      "failure",
      "failure",
      "failure",
      "failure",
      "blocked",
      null,
    ]);
  });

  it("label requests with a fixed set of route classes, never the path", () => {
    const classify = createRouteClassifier(
      (path) => path === "/favicon.svg",
      (path) => path === "/faq",
    );
    expect(
      [
        null,
        "/healthz",
        "/readyz",
        "/metrics",
        "/pagefind/pagefind.js",
        "/api/trail",
        "/_actions/x",
        "/favicon.svg",
        "/faq",
        "/qualquer-coisa",
      ].map(classify),
    ).toEqual(["other", "health", "health", "metrics", "search", "api", "api", "asset", "page", "other"]);
  });
});
