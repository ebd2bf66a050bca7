/**
 * The bench's signal handlers (scripts/bench/insights.ts), kept out of the production entry point: they
 * do nothing unless B1_BENCH_TOGGLE_INSIGHTS is set, which only the bench does.
 */
import type { InsightsCollector } from "../lib/server/insights/collector.ts";

export function installBenchHooks(insights: Pick<InsightsCollector, "enabled" | "setCounting">, mode: string | undefined): void {
  if (!mode) return;
  // The bench's counting-cost comparison (scripts/bench/insights.ts) switches counting off and on in one
  // process: two processes of the same build differ by up to ±15 % of CPU per request on this shared machine,
  // more than the 5 % the comparison must tell. Never set in production (the variable is the bench's alone).
  // With "aa", the first signal switches counting off for good and every signal answers as if it switched: the
  // bench's A/A run (the same signals and pauses, off on both sides), which shows the protocol's own bias.
  if (mode === "1" && insights.enabled) {
    process.on("SIGUSR2", () => {
      const on = !insights.enabled;
      void insights.setCounting(on).then(() => console.log(`[bench] contagem do Insights ${on ? "ligada" : "desligada"}`));
    });
  }
  // Before a window that switches nothing the bench sends SIGWINCH and waits for this answer: every window then starts after
  // one signal and its answer, as each on window does after its switch.
  process.on("SIGWINCH", () => console.log("[bench] pronto"));
  if (mode === "aa" && insights.enabled) {
    let on = true;
    process.on("SIGUSR2", () => {
      on = !on;
      void insights.setCounting(false).then(() => console.log(`[bench] contagem do Insights ${on ? "ligada" : "desligada"}`));
    });
  }
}
