/**
 * A registry's metrics gathered into io.prometheus.client.MetricFamily shapes (what client_golang's
 * Gather returns): families sorted by name, label pairs by name, series by label values; classic
 * histogram buckets without the implicit +Inf one; native buckets beside them when the registry
 * keeps native histograms.
 */
import type { MetricsRegistry } from './registry.js';
import { nativeSeriesKey } from './registry.js';
import type { NativeHistogramSnapshot } from './native-histogram.js';

/** io.prometheus.client.MetricType. */
export type MetricFamilyType = 'counter' | 'gauge' | 'summary' | 'untyped' | 'histogram';

/** One label of a series. */
export interface LabelPair {
  readonly name: string;
  readonly value: string;
}

/** A classic bucket: observations at most `upperBound`, cumulative. */
export interface ClassicBucket {
  readonly upperBound: number;
  readonly cumulativeCount: number;
}

/** A histogram series: classic buckets always, native ones with native histograms on. */
export interface HistogramValue {
  readonly count: number;
  readonly sum: number;
  readonly buckets: readonly ClassicBucket[];
  readonly native?: NativeHistogramSnapshot;
}

/** A summary series. */
export interface SummaryValue {
  readonly count: number;
  readonly sum: number;
  readonly quantiles: ReadonlyArray<{ readonly quantile: number; readonly value: number }>;
}

/** One series of a family; exactly one of the values is set, the one of the family's type. */
export interface MetricSeries {
  readonly labels: readonly LabelPair[];
  readonly counter?: number;
  readonly gauge?: number;
  readonly untyped?: number;
  readonly summary?: SummaryValue;
  readonly histogram?: HistogramValue;
}

/** A metric with all its series. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricFamilyType;
  readonly metrics: readonly MetricSeries[];
}

type PromValue = { value: number; labels: Readonly<Record<string, string | number | undefined>>; metricName?: string };

/**
 * Every metric of the registry, collected first (its onCollect functions run, and native resets
 * that came due are applied), as MetricFamily shapes.
 */
export async function gatherMetricFamilies(registry: MetricsRegistry): Promise<MetricFamily[]> {
  await registry.collect();
  settleNativeHistograms(registry);
  const families: MetricFamily[] = [];
  for (const family of await registry.promJson()) {
    const values = family.values as PromValue[];
    const type = String(family.type);
    const metrics =
      type === 'histogram'
        ? histogramSeries(family.name, values, registry)
        : type === 'summary'
          ? summarySeries(family.name, values)
          : values.map((v) => scalarSeries(type, v));
    families.push({ name: family.name, help: family.help, type: familyType(type), metrics: sortSeries(metrics) });
  }
  return families.sort((a, b) => compare(a.name, b.name));
}

/**
 * Applies the native resets that came due since the last observation (they start the classic
 * series over too), so that every format shows the same counts; a no-op with Kubernetes' settings,
 * which never reset.
 */
export function settleNativeHistograms(registry: MetricsRegistry): void {
  for (const name of registry.names()) registry.nativeHistogram(name)?.settle();
}

function familyType(type: string): MetricFamilyType {
  return type === 'counter' || type === 'gauge' || type === 'summary' || type === 'histogram' ? type : 'untyped';
}

function scalarSeries(type: string, v: PromValue): MetricSeries {
  const labels = labelPairs(v.labels, '');
  if (type === 'counter') return { labels, counter: v.value };
  if (type === 'gauge') return { labels, gauge: v.value };
  return { labels, untyped: v.value };
}

/** prom-client lists a histogram's series as `_bucket` (with `le`), `_sum` and `_count` values. */
function histogramSeries(name: string, values: readonly PromValue[], registry: MetricsRegistry): MetricSeries[] {
  const groups = new Map<string, { labels: LabelPair[]; buckets: ClassicBucket[]; count: number; sum: number }>();
  for (const v of values) {
    const key = nativeSeriesKey(v.labels);
    let group = groups.get(key);
    if (!group) {
      group = { labels: labelPairs(v.labels, 'le'), buckets: [], count: 0, sum: 0 };
      groups.set(key, group);
    }
    if (v.metricName === `${name}_bucket`) {
      // The +Inf bucket is implicit in the protobuf format (client_golang leaves it out).
      if (v.labels.le !== '+Inf') group.buckets.push({ upperBound: Number(v.labels.le), cumulativeCount: v.value });
    } else if (v.metricName === `${name}_sum`) group.sum = v.value;
    else if (v.metricName === `${name}_count`) group.count = v.value;
  }
  const natives = registry.nativeHistogram(name);
  return [...groups].map(([key, g]) => {
    const native = natives?.get(key)?.snapshot();
    return { labels: g.labels, histogram: { count: g.count, sum: g.sum, buckets: g.buckets, ...(native ? { native } : {}) } };
  });
}

/** prom-client lists a summary's series as quantile values (with `quantile`), `_sum` and `_count`. */
function summarySeries(name: string, values: readonly PromValue[]): MetricSeries[] {
  const groups = new Map<string, { labels: LabelPair[]; quantiles: Array<{ quantile: number; value: number }>; count: number; sum: number }>();
  for (const v of values) {
    const labels = labelPairs(v.labels, 'quantile');
    const key = JSON.stringify(labels);
    let group = groups.get(key);
    if (!group) {
      group = { labels, quantiles: [], count: 0, sum: 0 };
      groups.set(key, group);
    }
    if (v.metricName === `${name}_sum`) group.sum = v.value;
    else if (v.metricName === `${name}_count`) group.count = v.value;
    else if (v.labels.quantile !== undefined) group.quantiles.push({ quantile: Number(v.labels.quantile), value: v.value });
  }
  return [...groups.values()].map((g) => ({ labels: g.labels, summary: { count: g.count, sum: g.sum, quantiles: g.quantiles } }));
}

function labelPairs(labels: Readonly<Record<string, string | number | undefined>>, without: string): LabelPair[] {
  return Object.keys(labels)
    .filter((k) => k !== without && labels[k] !== undefined)
    .sort(compare)
    .map((name) => ({ name, value: String(labels[name]) }));
}

/** client_golang's MetricSorter: by label values, pair by pair. */
function sortSeries(series: MetricSeries[]): MetricSeries[] {
  return series.sort((a, b) => {
    const n = Math.min(a.labels.length, b.labels.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a.labels[i]!.value, b.labels[i]!.value);
      if (c !== 0) return c;
    }
    return a.labels.length - b.labels.length;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
