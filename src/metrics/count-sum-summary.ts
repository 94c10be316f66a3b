/**
 * A summary with no quantiles: only its `_sum` and `_count` per series. client_golang's summary
 * declared without objectives exposes just those two, and they are never windowed (a max age only
 * ages quantiles). prom-client's Summary feeds a t-digest on every observation even when no
 * quantile is asked for; this one adds two numbers, and answers prom-client's registries in the
 * same shape as its Summary.
 */
import { Summary, type LabelValues } from 'prom-client';

/** What prom-client's registries read of a metric. */
type SummaryValues = Awaited<ReturnType<Summary<string>['get']>>;

interface Series {
  labels: LabelValues<string>;
  count: number;
  sum: number;
}

/** A prom-client Summary whose series are a count and a sum, kept by a key the caller computes. */
export class CountSumSummary extends Summary<string> {
  private readonly series = new Map<string, Series>();
  /** How many times the summary was reset: a held series from before one is found again. */
  private resets = 0;

  constructor(
    private readonly summaryName: string,
    help: string,
    labelNames: readonly string[],
    registers: ConstructorParameters<typeof Summary<string>>[0]['registers'],
  ) {
    super({ name: summaryName, help, labelNames: [...labelNames], percentiles: [], ...(registers ? { registers } : {}) });
    // A summary without labels has its one series from the start, as client_golang's.
    if (labelNames.length === 0) this.series.set('', { labels: {}, count: 0, sum: 0 });
  }

  /** Adds `value` to the series of `key`; `labels` (the series' label values) are kept the first time. */
  add(key: string, labels: () => LabelValues<string>, value: number): void {
    const s = this.series.get(key);
    if (s) {
      s.count++;
      s.sum += value;
    } else this.series.set(key, { labels: labels(), count: 1, sum: value });
  }

  /**
   * The series of `key`, to add to without finding it again. It is made at its first observation
   * (a series is exposed only once observed), and found again after a {@link reset}, which drops
   * the labelled series.
   */
  seriesOf(key: string, labels: () => LabelValues<string>): { add(value: number): void } {
    let held: Series | undefined;
    let heldAt = -1;
    return {
      add: (value) => {
        if (heldAt !== this.resets || !held) {
          held = this.series.get(key);
          heldAt = this.resets;
          if (!held) this.series.set(key, (held = { labels: labels(), count: 0, sum: 0 }));
        }
        held.count++;
        held.sum += value;
      },
    };
  }

  override async get(): Promise<SummaryValues> {
    // The base answers the name, help, type and aggregator; it saw no observation, so no values.
    const base = await super.get();
    const values: SummaryValues['values'] = [];
    for (const s of this.series.values()) {
      values.push({ metricName: `${this.summaryName}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.summaryName}_count`, labels: s.labels, value: s.count });
    }
    return { ...base, values };
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor resets before this class's fields exist.
    const series = this.series as Map<string, Series> | undefined;
    if (!series) return;
    this.resets++;
    for (const [key, s] of series) {
      if (key === '' && Object.keys(s.labels).length === 0) {
        s.count = 0;
        s.sum = 0;
      } else series.delete(key);
    }
  }
}
