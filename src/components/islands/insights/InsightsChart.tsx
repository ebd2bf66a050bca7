/**
 * A line chart drawn with uPlot (loaded on this page only, by dynamic import). The canvas is hidden from
 * assistive technology: the table beside it holds the same numbers and is the accessible form.
 */
import { useEffect, useRef, useState } from "react";

/** Whether the page is dark now: the header's choice (`<html data-theme>`), else the system's (as global.css's `dark` variant). */
function pageIsDark(): boolean {
  const chosen = document.documentElement.dataset.theme;
  return chosen === "dark" || (chosen !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
}
import "uplot/dist/uPlot.min.css";

interface Props {
  /** X labels (days or weeks), in order. */
  labels: string[];
  values: number[];
  seriesLabel: string;
  /** Axis titles with their unit, drawn beside the axes. */
  xTitle: string;
  yTitle: string;
}

export default function InsightsChart({ labels, values, seriesLabel, xTitle, yTitle }: Props) {
  const box = useRef<HTMLDivElement>(null);
  // Read from the page, and again when the reader or the system switches: the canvas has no CSS to follow it.
  const [dark, setDark] = useState(pageIsDark);
  useEffect(() => {
    const update = () => setDark(pageIsDark());
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      media.removeEventListener("change", update);
      observer.disconnect();
    };
  }, []);
  useEffect(() => {
    let plot: { destroy: () => void } | null = null;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled || !box.current) return;
      const ink = dark ? "#e2e8f0" : "#334155";
      // The grid stays behind the data: on dark, a faint line (slate-400 at 18 %), thinner than the 2 px series.
      const grid = { stroke: dark ? "rgba(148, 163, 184, 0.18)" : "#e2e8f0", width: 1 };
      const font = "12px system-ui, sans-serif";
      const width = Math.max(280, box.current.clientWidth);
      plot = new UPlot(
        {
          width,
          height: 220,
          legend: { show: false },
          cursor: { show: true, drag: { x: false, y: false } },
          scales: { x: { time: false } },
          axes: [
            {
              stroke: ink,
              grid,
              ticks: grid,
              label: xTitle,
              labelFont: font,
              font,
              values: (_u, ticks) => ticks.map((tick) => labels[tick]?.slice(5) ?? ""),
            },
            { stroke: ink, grid, ticks: grid, label: yTitle, labelFont: font, font, size: 56 },
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
  }, [labels, values, seriesLabel, xTitle, yTitle, dark]);
  // The plotted numbers stay on the element (tests compare them with the table beside it).
  return (
    <div
      ref={box}
      aria-hidden="true"
      data-grafico={seriesLabel}
      data-eixo-x={xTitle}
      data-eixo-y={yTitle}
      data-tema={dark ? "escuro" : "claro"}
      data-valores={JSON.stringify(values)}
      className="w-full overflow-hidden"
    />
  );
}
