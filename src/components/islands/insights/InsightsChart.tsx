/**
 * A line chart drawn with uPlot (loaded on this page only, by dynamic import). The canvas is hidden from
 * assistive technology: the table beside it holds the same numbers and is the accessible form.
 */
import { useEffect, useRef } from "react";
import "uplot/dist/uPlot.min.css";

interface Props {
  /** X labels (days or weeks), in order. */
  labels: string[];
  values: number[];
  seriesLabel: string;
}

export default function InsightsChart({ labels, values, seriesLabel }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let plot: { destroy: () => void } | null = null;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled || !box.current) return;
      const dark = document.documentElement.classList.contains("dark");
      const ink = dark ? "#e2e8f0" : "#334155";
      const grid = dark ? "#334155" : "#e2e8f0";
      const width = Math.max(280, box.current.clientWidth);
      plot = new UPlot(
        {
          width,
          height: 220,
          legend: { show: false },
          cursor: { show: true, drag: { x: false, y: false } },
          scales: { x: { time: false } },
          axes: [
            { stroke: ink, grid: { stroke: grid }, values: (_u, ticks) => ticks.map((tick) => labels[tick]?.slice(5) ?? "") },
            { stroke: ink, grid: { stroke: grid } },
          ],
          series: [{}, { label: seriesLabel, stroke: dark ? "#7dd3fc" : "#0369a1", width: 2, fill: dark ? "#0c4a6e55" : "#bae6fd66" }],
        },
        [labels.map((_, index) => index), values],
        box.current,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [labels, values, seriesLabel]);
  // The plotted numbers stay on the element (tests compare them with the table beside it).
  return (
    <div ref={box} aria-hidden="true" data-grafico={seriesLabel} data-valores={JSON.stringify(values)} className="w-full overflow-hidden" />
  );
}
