/**
 * A tiny registry of monotonically increasing counters with labels, for the events the API server
 * counts as Prometheus counters (`apiserver_certificates_registry_csr_requested_duration_total`,
 * ...). It only counts; an exporter (a `/metrics` endpoint) reads {@link Counters.samples} and
 * writes them in its own format, with the help texts given to {@link CounterRegistry.define}.
 */

/** One counter value: a name, its labels, how many times it was counted. */
export interface CounterSample {
  readonly name: string;
  readonly help: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** What readers of counters see (`cluster.counters`). */
export interface Counters {
  /** The value of one counter with these labels; 0 when never counted. */
  value(name: string, labels?: Readonly<Record<string, string>>): number;
  /** Every counted series, sorted by name then labels. */
  samples(): CounterSample[];
}

/** What counts events: one call per event. */
export interface CounterRecorder {
  inc(name: string, labels?: Readonly<Record<string, string>>, by?: number): void;
}

const seriesKey = (labels: Readonly<Record<string, string>>): string =>
  JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((k) => [k, labels[k]]),
  );

/** Counters in memory, per cluster. */
export class CounterRegistry implements Counters, CounterRecorder {
  private readonly help = new Map<string, string>();
  private readonly series = new Map<string, Map<string, { labels: Record<string, string>; value: number }>>();

  /** Gives a counter its help text (what an exporter writes as `# HELP`). */
  define(name: string, help: string): void {
    this.help.set(name, help);
  }

  inc(name: string, labels: Readonly<Record<string, string>> = {}, by = 1): void {
    if (!Number.isFinite(by) || by < 0) throw new RangeError(`counter ${name}: cannot add ${by}`);
    let byLabels = this.series.get(name);
    if (!byLabels) this.series.set(name, (byLabels = new Map()));
    const key = seriesKey(labels);
    const entry = byLabels.get(key);
    if (entry) entry.value += by;
    else byLabels.set(key, { labels: { ...labels }, value: by });
  }

  value(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return this.series.get(name)?.get(seriesKey(labels))?.value ?? 0;
  }

  samples(): CounterSample[] {
    const out: CounterSample[] = [];
    for (const name of [...this.series.keys()].sort()) {
      const byLabels = this.series.get(name)!;
      for (const key of [...byLabels.keys()].sort()) {
        const { labels, value } = byLabels.get(key)!;
        out.push({ name, help: this.help.get(name) ?? '', labels: { ...labels }, value });
      }
    }
    return out;
  }
}
