/**
 * A component's metrics, as Kubernetes' component-base registers them: counters, gauges,
 * histograms and summaries with a stability level (`[ALPHA]`, `[BETA]`, `[STABLE]` before the
 * help text, as component-base writes it), kept in prom-client registries of their own (never
 * prom-client's global one, so that two clusters in one process count apart), exposed in
 * Prometheus' text format and in OpenMetrics 1.0.
 */
import { Counter, Gauge, Histogram, Registry, Summary, type LabelValues, type OpenMetricsContentType } from 'prom-client';
import type { Clock } from '../clock.js';
import { CountSumSummary } from './count-sum-summary.js';
import { KUBERNETES_NATIVE_HISTOGRAMS, NativeHistogramVec, type NativeHistogramConfig } from './native-histogram.js';

/**
 * component-base's stability levels; `INTERNAL` metrics carry no prefix guarantee either.
 * @category Metrics, health and tracing
 */
export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

/**
 * The label values of one series; a label left out is the empty string, as in client_golang.
 * @category Metrics, health and tracing
 */
export type MetricLabels<L extends string> = Partial<Record<L, string>>;

/**
 * What every metric is declared with.
 * @category Metrics, health and tracing
 */
export interface MetricDefinition<L extends string> {
  /** The full name, `apiserver_request_total`. */
  readonly name: string;
  /** The help text, without the stability prefix. */
  readonly help: string;
  /** ALPHA by default, as component-base. */
  readonly stability?: StabilityLevel;
  /** The label names, in the order upstream declares them. */
  readonly labelNames?: readonly L[];
}

/**
 * A histogram's declaration: its classic buckets' upper bounds.
 * @category Metrics, health and tracing
 */
export interface HistogramDefinition<L extends string> extends MetricDefinition<L> {
  readonly buckets: readonly number[];
}

/**
 * A summary's declaration: the quantiles it reports and the window they cover.
 * @category Metrics, health and tracing
 */
export interface SummaryDefinition<L extends string> extends MetricDefinition<L> {
  /** The quantiles, `[0.5, 0.9, 0.99]`. */
  readonly quantiles: readonly number[];
  /** How long an observation counts towards the quantiles (client_golang's MaxAge). */
  readonly maxAgeSeconds?: number;
  /** How many buckets the window rotates through (client_golang's AgeBuckets). */
  readonly ageBuckets?: number;
}

/**
 * A counter: only goes up.
 * @category Metrics, health and tracing
 */
export interface CounterMetric<L extends string = string> {
  /** Adds `by` (1 by default) to the series of `labels`. */
  inc(labels?: MetricLabels<L>, by?: number): void;
  /**
   * The series of `labels`, found once (client_golang's `With`): a hot path that always counts the
   * same series keeps it and counts without a lookup.
   */
  with(labels?: MetricLabels<L>): CounterSeries;
}

/**
 * One series of a counter.
 * @category Metrics, health and tracing
 */
export interface CounterSeries {
  /** Adds `by` (1 by default). */
  inc(by?: number): void;
}

/**
 * A gauge: set, raised or lowered.
 * @category Metrics, health and tracing
 */
export interface GaugeMetric<L extends string = string> {
  /** Sets the series of `labels` to `value`. */
  set(labels: MetricLabels<L>, value: number): void;
  /** Adds `by` (1 by default) to the series of `labels`. */
  inc(labels?: MetricLabels<L>, by?: number): void;
  /** Subtracts `by` (1 by default) from the series of `labels`. */
  dec(labels?: MetricLabels<L>, by?: number): void;
  /** Drops the series of these labels (what a gauge of a thing that went away does). */
  remove(labels: MetricLabels<L>): void;
  /** Drops every series (before a collector sets the current ones again). */
  reset(): void;
}

/**
 * A histogram (classic buckets, and native ones when the registry has them on).
 * @category Metrics, health and tracing
 */
export interface HistogramMetric<L extends string = string> {
  /** Records one observation of `value` in the series of `labels`. */
  observe(labels: MetricLabels<L>, value: number): void;
  /**
   * Adds observations a caller already sorted into the declared buckets (what a hot path that
   * counts in plain arrays hands over when the metrics are read): `counts[i]` observations fell in
   * bucket `i` (above bucket `i - 1`'s bound, at most bucket `i`'s), `counts[buckets.length]`
   * above every bound; `sum` is their total.
   */
  observeCounted(labels: MetricLabels<L>, counts: ArrayLike<number>, sum: number): void;
  /** The series of `labels`, found once (client_golang's `With`), to observe without a lookup. */
  with(labels: MetricLabels<L>): HistogramSeriesHandle;
}

/**
 * One series of a histogram.
 * @category Metrics, health and tracing
 */
export interface HistogramSeriesHandle {
  /** Records one observation of `value`. */
  observe(value: number): void;
}

/**
 * A summary: quantiles over a sliding window, a count and a sum.
 * @category Metrics, health and tracing
 */
export interface SummaryMetric<L extends string = string> {
  /** Records one observation of `value` in the series of `labels`. */
  observe(labels: MetricLabels<L>, value: number): void;
  /** The series of `labels`, found once (client_golang's `With`), to observe without a lookup. */
  with(labels: MetricLabels<L>): SummarySeriesHandle;
}

/**
 * One series of a summary, as {@link SummaryMetric.with} found it.
 * @category Metrics, health and tracing
 */
export interface SummarySeriesHandle {
  /** Records one observation of `value` in this series. */
  observe(value: number): void;
}

/**
 * One series as a reader sees it.
 * @category Metrics, health and tracing
 */
export interface MetricSample {
  /** The series' name: a histogram's `_bucket`, `_sum` and `_count` are samples of their own. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * What tests and exporters read of a registry (`cluster.metrics`).
 * @category Metrics, health and tracing
 */
export interface MetricsReader {
  /**
   * The sum of a metric's series whose labels include `labels` (all of them when none are given);
   * 0 for a metric never counted. For a histogram or summary, its name counts observations (its
   * `_count`), `<name>_sum` sums them.
   */
  value(name: string, labels?: Readonly<Record<string, string>>): Promise<number>;
  /** Every series of every metric, sorted by name, as the text format would list them. */
  samples(): Promise<MetricSample[]>;
  /** The Prometheus text format (version 0.0.4) of every metric. */
  text(): Promise<string>;
}

/**
 * Options of {@link MetricsRegistry}.
 * @category Metrics, health and tracing
 */
export interface MetricsRegistryOptions {
  /** Native histograms beside the classic ones (the NativeHistograms feature gate); off by default. */
  readonly nativeHistograms?: boolean;
  /**
   * Count nothing: every metric declared is a no-op that costs nothing to update, and the
   * registry reads as empty (a component whose metrics are switched off).
   */
  readonly disabled?: boolean;
  /**
   * The shape of the native histograms (with `nativeHistograms`); Kubernetes' settings
   * (`KUBERNETES_NATIVE_HISTOGRAMS`) where left out.
   */
  readonly nativeHistogramConfig?: Partial<NativeHistogramConfig>;
  /** The time native histograms' resets are measured by; the system clock by default. */
  readonly clock?: Clock;
}

const NOOP_SERIES = { inc() {}, observe() {} };
const NOOP = { inc() {}, dec() {}, set() {}, remove() {}, reset() {}, observe() {}, observeCounted() {}, with: () => NOOP_SERIES };

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string> | Summary<string>;

const prefixed = (def: MetricDefinition<string>): string => {
  const level = def.stability ?? 'ALPHA';
  return level === 'INTERNAL' ? def.help : `[${level}] ${def.help}`;
};

/**
 * A component's metrics: declare them once, update them from real events, expose them on request.
 * @category Metrics, health and tracing
 */
export class MetricsRegistry implements MetricsReader {
  /** Prometheus text 0.0.4. */
  readonly prometheus = new Registry();
  /** OpenMetrics 1.0: the same metrics, registered in both. */
  readonly openMetrics = openMetricsRegistry();
  readonly nativeHistograms: boolean;
  /** False when made with `disabled`: nothing is counted. */
  readonly enabled: boolean;
  private readonly metrics = new Map<string, { kind: string; metric: AnyMetric; wrapper: unknown }>();
  private readonly collectors: Array<() => void | Promise<void>> = [];
  private reading: Promise<unknown> = Promise.resolve();
  /** Hand the counts kept in plain numbers over to prom-client (run after the collectors, before every read). */
  private readonly flushes: Array<() => void> = [];
  private readonly resets: Array<() => void> = [];
  private readonly nativeVecs = new Map<string, NativeHistogramVec<LabelValues<string>>>();
  private readonly nativeConfig: NativeHistogramConfig;
  private readonly clock: Clock | undefined;

  constructor(options: MetricsRegistryOptions = {}) {
    this.nativeHistograms = options.nativeHistograms ?? false;
    this.enabled = options.disabled !== true;
    this.nativeConfig = { ...KUBERNETES_NATIVE_HISTOGRAMS, ...options.nativeHistogramConfig };
    this.clock = options.clock;
  }

  /** Declares a counter; declaring the same name again returns the first. */
  counter<L extends string = never>(def: MetricDefinition<L>): CounterMetric<L> {
    return this.declare('counter', def, () => {
      const clean = cleaner(def.labelNames);
      const metric = new Counter<string>({ ...this.base(def) });
      // Counted in plain numbers per series and handed to prom-client before every read: an
      // increment costs a key and an addition, not prom-client's label hashing.
      const key = seriesKeyer(def.labelNames);
      // `counted`: increased since the last read (by 0 too: that makes the series, as client_golang's Add(0)).
      const pending = new Map<string, { labels: MetricLabels<string> | undefined; n: number; counted: boolean }>();
      this.flushes.push(() => {
        for (const p of pending.values()) {
          if (!p.counted) continue;
          metric.inc(clean(p.labels), p.n);
          p.n = 0;
          p.counted = false;
        }
      });
      const series = (labels: MetricLabels<string> | undefined) => {
        const k = key(labels);
        let p = pending.get(k);
        if (!p) pending.set(k, (p = { labels: labels && { ...labels }, n: 0, counted: false }));
        return p;
      };
      const check = (by: number) => {
        if (!(by >= 0) || by === Infinity) throw new Error(`counter ${def.name}: cannot add ${by}`);
      };
      const wrapper: CounterMetric<L> = {
        inc: (labels, by = 1) => {
          check(by);
          const p = series(labels);
          p.n += by;
          p.counted = true;
        },
        with: (labels) => {
          const p = series(labels);
          return {
            inc: (by = 1) => {
              check(by);
              p.n += by;
              p.counted = true;
            },
          };
        },
      };
      return { metric, wrapper };
    });
  }

  /** Declares a gauge; declaring the same name again returns the first. */
  gauge<L extends string = never>(def: MetricDefinition<L>): GaugeMetric<L> {
    return this.declare('gauge', def, () => {
      const clean = cleaner(def.labelNames);
      const metric = new Gauge<string>({ ...this.base(def) });
      const wrapper: GaugeMetric<L> = {
        set: (labels, value) => metric.set(clean(labels), value),
        inc: (labels, by = 1) => metric.inc(clean(labels), by),
        dec: (labels, by = 1) => metric.dec(clean(labels), by),
        remove: (labels) => metric.remove(clean(labels)),
        reset: () => metric.reset(),
      };
      return { metric, wrapper };
    });
  }

  /** Declares a histogram; declaring the same name again returns the first. */
  histogram<L extends string = never>(def: HistogramDefinition<L>): HistogramMetric<L> {
    return this.declare('histogram', def, () => {
      const clean = cleaner(def.labelNames);
      const metric = new Histogram<string>({ ...this.base(def), buckets: [...def.buckets] });
      if (!this.nativeHistograms) {
        // As counters: counted per bucket in plain numbers, handed to prom-client before every read.
        const key = seriesKeyer(def.labelNames);
        const bounds = def.buckets;
        const pending = new Map<string, { labels: MetricLabels<string> | undefined; counts: Float64Array; sum: number; series?: HistogramSeries }>();
        this.flushes.push(() => {
          for (const p of pending.values()) {
            if (p.sum === 0 && p.counts.every((c) => c === 0)) continue;
            p.series = addCounted(metric, clean(p.labels), bounds, p.counts, p.sum, p.series);
            p.counts.fill(0);
            p.sum = 0;
          }
        });
        // After a reset prom-client's series are new objects: the ones remembered are forgotten
        // (the pending counts stay, at zero, for the series handed out by `with`).
        this.resets.push(() => {
          for (const p of pending.values()) {
            p.counts.fill(0);
            p.sum = 0;
            p.series = undefined;
          }
        });
        const series = (labels: MetricLabels<string>) => {
          const k = key(labels);
          let p = pending.get(k);
          if (!p) pending.set(k, (p = { labels: labels && { ...labels }, counts: new Float64Array(bounds.length + 1), sum: 0 }));
          return p;
        };
        const observeInto = (p: { counts: Float64Array; sum: number }, value: number) => {
          if (!Number.isFinite(value)) throw new Error(`histogram ${def.name}: cannot observe ${value}`);
          p.counts[bucketIndex(bounds, value)]! += 1;
          p.sum += value;
        };
        const wrapper: HistogramMetric<L> = {
          observe: (labels, value) => observeInto(series(labels), value),
          observeCounted: (labels, counts, sum) => addCounted(metric, clean(labels), def.buckets, counts, sum),
          with: (labels) => {
            const p = series(labels);
            return { observe: (value) => observeInto(p, value) };
          },
        };
        return { metric, wrapper };
      }
      // Native buckets beside the classic ones: one observation updates both, and a native reset
      // (bucket limit with a reset duration) starts the classic series over too, as client_golang's
      // single histogram does.
      const clock = this.clock;
      const native = new NativeHistogramVec<LabelValues<string>>(
        this.nativeConfig,
        { resetClassic: (labels) => metric.zero(labels) },
        clock ? () => clock.now() : Date.now,
      );
      this.nativeVecs.set(def.name, native);
      const wrapper: HistogramMetric<L> = {
        observe: (labels, value) => {
          const l = clean(labels);
          native.observe(nativeSeriesKey(l), l, value, () => metric.observe(l, value));
        },
        observeCounted: (_labels, counts) => {
          // Native buckets need each value, not bucket counts: callers observe one by one when native histograms are on.
          for (let i = 0; i < counts.length; i++) {
            if (counts[i] !== 0) throw new Error(`histogram ${def.name}: counted observations cannot feed native histograms`);
          }
        },
        with: (labels) => ({ observe: (value) => wrapper.observe(labels, value) }),
      };
      return { metric, wrapper };
    });
  }

  /** Declares a summary; declaring the same name again returns the first. */
  summary<L extends string = never>(def: SummaryDefinition<L>): SummaryMetric<L> {
    return this.declare('summary', def, () => {
      const clean = cleaner(def.labelNames);
      if (def.quantiles.length === 0) {
        // Only _sum and _count: two additions per observation instead of a digest update.
        const key = seriesKeyer(def.labelNames);
        const { name, help, registers } = this.base(def);
        const metric = new CountSumSummary(name, help, def.labelNames ?? [], registers);
        const finite = (value: number) => {
          if (!Number.isFinite(value)) throw new Error(`summary ${def.name}: cannot observe ${value}`);
        };
        const wrapper: SummaryMetric<L> = {
          observe: (labels, value) => {
            finite(value);
            metric.add(key(labels), () => clean(labels), value);
          },
          with: (labels) => {
            const series = metric.seriesOf(key(labels), () => clean(labels));
            return {
              observe: (value) => {
                finite(value);
                series.add(value);
              },
            };
          },
        };
        return { metric, wrapper };
      }
      const metric = new Summary<string>({
        ...this.base(def),
        percentiles: [...def.quantiles],
        ...(def.maxAgeSeconds !== undefined ? { maxAgeSeconds: def.maxAgeSeconds, ageBuckets: def.ageBuckets ?? 5 } : {}),
      });
      const wrapper: SummaryMetric<L> = {
        observe: (labels, value) => metric.observe(clean(labels), value),
        with: (labels) => {
          const cleaned = clean(labels);
          return { observe: (value) => metric.observe(cleaned, value) };
        },
      };
      return { metric, wrapper };
    });
  }

  /**
   * Runs `collect` before every exposition and read: what sets gauges of state kept elsewhere
   * (stored objects per resource, registered watchers) at scrape time instead of on every change.
   */
  onCollect(collect: () => void | Promise<void>): void {
    this.collectors.push(collect);
  }

  /** Runs the collectors (exporters call it once before reading the prom-client registries). */
  async collect(): Promise<void> {
    for (const c of this.collectors) await c();
    for (const flush of this.flushes) flush();
  }

  /** Empties every metric (component-base's metrics reset handler): what was counted so far is gone. */
  resetMetrics(): void {
    for (const flush of this.flushes) flush();
    this.prometheus.resetMetrics();
    for (const forget of this.resets) forget();
  }

  async text(): Promise<string> {
    await this.collect();
    return this.exclusive(() => this.prometheus.metrics());
  }

  /** The OpenMetrics 1.0 text of every metric, ending in `# EOF`. */
  async openMetricsText(): Promise<string> {
    await this.collect();
    return this.exclusive(async () => {
      // prom-client's OpenMetrics writer renames the counters it writes (their `_total` dropped, to
      // add it back per sample) and leaves them renamed: the names are put back for the other formats.
      const names = new Map<AnyMetric, string>();
      for (const { metric } of this.metrics.values()) names.set(metric, (metric as unknown as { name: string }).name);
      try {
        return await this.openMetrics.metrics();
      } finally {
        for (const [metric, name] of names) (metric as unknown as { name: string }).name = name;
      }
    });
  }

  /** prom-client's JSON of every metric (what the protobuf writer reads), never while another format renames them. */
  async promJson(): ReturnType<Registry['getMetricsAsJSON']> {
    return this.exclusive(() => this.prometheus.getMetricsAsJSON());
  }

  async samples(): Promise<MetricSample[]> {
    await this.collect();
    const out: MetricSample[] = [];
    for (const family of await this.promJson()) {
      for (const v of family.values as Array<{ value: number; labels: LabelValues<string>; metricName?: string }>) {
        out.push({ name: v.metricName ?? family.name, labels: stringLabels(v.labels), value: v.value });
      }
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async value(name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
    const declared = this.metrics.get(name);
    const series = declared && (declared.kind === 'histogram' || declared.kind === 'summary') ? `${name}_count` : name;
    let sum = 0;
    for (const s of await this.samples()) {
      if (s.name !== series) continue;
      if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
    }
    return sum;
  }

  /** The prom-client metric behind a declared name (exporters that write other formats read it). */
  promMetric(name: string): AnyMetric | undefined {
    return this.metrics.get(name)?.metric;
  }

  /**
   * The native state of a histogram's series (with native histograms on), by
   * `nativeSeriesKey` of its labels; undefined for other metrics or with the gate off.
   */
  nativeHistogram(name: string): NativeHistogramVec<LabelValues<string>> | undefined {
    return this.nativeVecs.get(name);
  }

  /** The declared metrics' names, sorted. */
  names(): string[] {
    return [...this.metrics.keys()].sort();
  }

  /** Runs reads of the prom-client registries one at a time (see {@link openMetricsText}). */
  private exclusive<T>(read: () => Promise<T>): Promise<T> {
    const run = this.reading.then(read, read);
    this.reading = run.catch(() => undefined);
    return run;
  }

  private base(def: MetricDefinition<string>) {
    return { name: def.name, help: prefixed(def), labelNames: [...(def.labelNames ?? [])], registers: [this.prometheus, this.openMetrics] };
  }

  private declare<W>(kind: string, def: MetricDefinition<string>, make: () => { metric: AnyMetric; wrapper: W }): W {
    if (!this.enabled) return NOOP as W;
    const existing = this.metrics.get(def.name);
    if (existing) {
      if (existing.kind !== kind) throw new Error(`metric ${def.name} is already declared as a ${existing.kind}`);
      return existing.wrapper as W;
    }
    const made = make();
    this.metrics.set(def.name, { kind, ...made });
    return made.wrapper;
  }
}

/** A prom-client registry that writes OpenMetrics (its constructor takes the format; its types do not say so). */
function openMetricsRegistry(): Registry<OpenMetricsContentType> {
  const r = new Registry<OpenMetricsContentType>();
  r.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  return r;
}

/**
 * Label values as prom-client takes them: every declared label, in name order (as client_golang
 * writes them), a missing one as the empty string.
 */
function cleaner(labelNames: readonly string[] | undefined): (labels: Readonly<Record<string, string | undefined>> | undefined) => LabelValues<string> {
  const names = [...(labelNames ?? [])].sort();
  return (labels) => {
    const out: Record<string, string> = {};
    for (const k of names) out[k] = labels?.[k] ?? '';
    return out;
  };
}

/**
 * The key of a series' native state: its label values in label-name order (the classic series'
 * labels as prom-client reports them give the same key).
 */
export function nativeSeriesKey(labels: Readonly<Record<string, string | number | undefined>>): string {
  return JSON.stringify(
    Object.keys(labels)
      .filter((k) => k !== 'le')
      .sort()
      .map((k) => [k, String(labels[k] ?? '')]),
  );
}

/** A series' key: its label values in the declared order (a label left out is ""). */
function seriesKeyer(labelNames: readonly string[] | undefined): (labels: Readonly<Record<string, string | undefined>> | undefined) => string {
  const names = labelNames ?? [];
  if (names.length === 0) return () => '';
  if (names.length === 1) {
    // One label: its value is the key (no string to build on the hot path).
    const only = names[0]!;
    return (labels) => labels?.[only] ?? '';
  }
  return (labels) => {
    if (!labels) return '';
    let k = '';
    for (const n of names) k += `${labels[n] ?? ''}\u0000`;
    return k;
  };
}

/** The classic bucket a value falls in: the first bound at or above it, or the overflow bucket past the last. */
function bucketIndex(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  return i;
}

/** prom-client's state of one histogram series: counts per bucket (not cumulative), sum and count. */
interface HistogramSeries {
  labels: LabelValues<string>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

/**
 * Adds counted observations to a prom-client histogram series. prom-client has no public call for
 * it, so its per-series state is updated where `observe` would update it.
 */
function addCounted(
  metric: Histogram<string>,
  labels: LabelValues<string>,
  bounds: readonly number[],
  counts: ArrayLike<number>,
  sum: number,
  known?: HistogramSeries,
): HistogramSeries | undefined {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  if (total === 0) return known;
  const state = metric as unknown as { hashMap?: Record<string, HistogramSeries> };
  const find = () => Object.values(state.hashMap ?? {}).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  let series = known ?? find();
  if (!series) {
    metric.zero(labels);
    series = find();
  }
  if (!series) throw new Error('cannot add counted observations to this prom-client histogram');
  for (let i = 0; i < bounds.length; i++) series.bucketValues[bounds[i]!] = (series.bucketValues[bounds[i]!] ?? 0) + (counts[i] ?? 0);
  series.sum += sum;
  series.count += total;
  return series;
}

function stringLabels(labels: LabelValues<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (v !== undefined) out[k] = String(v);
  return out;
}
