import type client from "prom-client";

/** One label set's observations: a count per bucket (the last one past every bound), their sum and number. */
export interface Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** What a registry reads from a metric's `get()` (prom-client's metrics give the same shape; `type` is its name). */
interface MetricValues {
  name: string;
  help: string;
  type: "histogram" | "counter";
  aggregator: "sum";
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
}

/** A metric the registry can expose: prom-client's registry only reads name, get() and reset(). */
export interface ExposedMetric {
  name: string;
  get(): Promise<MetricValues>;
  reset(): void;
}

/** Adds `metric` to `registry` (typed for prom-client's own classes, read through get() alone). */
export function registerLight(registry: client.Registry, metric: ExposedMetric): void {
  registry.registerMetric(metric as unknown as client.Metric);
}

/**
 * A histogram for the per-request path: the caller keeps its label set's series (made once), and
 * an observation is a bucket search and three additions. prom-client's own `observe` checked the
 * labels, hashed them into a string and allocated on every call (~3 % of the gate's CPU per
 * page). The registry reads it through the `get()` shape prom-client's metrics give it, so the
 * exposition is the same: `_bucket` (cumulative, `le`, then `+Inf`), `_sum`, `_count`; and
 * `counter()` exposes each series' count as a counter of its own (requests served).
 */
export class LightHistogram implements ExposedMetric {
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** A new series for `labels` (the caller keeps it: one per label set). */
  series(labels: Record<string, string> = {}): Series {
    const series: Series = { labels, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
    this.all.push(series);
    return series;
  }

  observe(series: Series, value: number): void {
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += value;
    series.count++;
  }

  get(): Promise<MetricValues> {
    const values: MetricValues["values"] = [];
    for (const series of this.all) {
      let cumulative = 0;
      for (let bucket = 0; bucket <= this.bounds.length; bucket++) {
        cumulative += series.counts[bucket]!;
        const le = bucket < this.bounds.length ? this.bounds[bucket]! : "+Inf";
        values.push({ labels: { le, ...series.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: "histogram", values, aggregator: "sum" });
  }

  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** A counter (for a registry) whose value per label set is this histogram's count of observations. */
  counter(name: string, help: string): ExposedMetric {
    return {
      name,
      get: () =>
        Promise.resolve({
          name,
          help,
          type: "counter",
          values: this.all.map((series) => ({ labels: series.labels, value: series.count })),
          aggregator: "sum",
        }),
      // The counter is the histogram's count: reset with it.
      reset: () => undefined,
    };
  }
}
