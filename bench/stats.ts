/**
 * Small statistics for the benchmarks: quantiles, a median-and-spread summary of repeated rounds,
 * and latency percentiles. Kept free of I/O so the tests can check them directly.
 */

/** Median and spread of a set of samples (one per round). */
export interface Summary {
  /** How many samples. */
  n: number;
  median: number;
  min: number;
  max: number;
  /** First quartile. */
  p25: number;
  /** Third quartile. */
  p75: number;
}

/**
 * The `q` quantile (0..1) of ascending `sorted` samples, interpolating linearly between the two
 * nearest ranks (the common "type 7" definition, so the median of an even count is the mean of the
 * middle two). NaN for no samples.
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  if (q <= 0) return sorted[0]!;
  if (q >= 1) return sorted[sorted.length - 1]!;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Summarizes samples; every field is NaN (and `n` 0) when there are none. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    min: sorted.length ? sorted[0]! : NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
  };
}

/** Latency percentiles, in the unit of the samples. */
export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** p50/p90/p99/max/mean of latency samples (sorted here; the input is left alone). */
export function percentiles(samples: readonly number[]): Percentiles {
  const sorted = Float64Array.from(samples).sort();
  const list = Array.from(sorted);
  let total = 0;
  for (const x of list) total += x;
  return {
    p50: quantile(list, 0.5),
    p90: quantile(list, 0.9),
    p99: quantile(list, 0.99),
    max: list.length ? list[list.length - 1]! : NaN,
    mean: list.length ? total / list.length : NaN,
  };
}

/** Element-wise `a[i] / b[i]` of two equally long sample lists (paired rounds). */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired samples differ in length: ${a.length} vs ${b.length}`);
  return a.map((x, i) => x / b[i]!);
}

/**
 * Formats a number for a table: three significant digits below 1,000, whole numbers with thousands
 * separators above.
 */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toLocaleString('en-US');
  if (abs === 0) return '0';
  return Number(x.toPrecision(3)).toString();
}

/** `median [min–max]` of a summary. */
export function formatSummary(s: Summary): string {
  if (s.n === 0) return '-';
  if (s.n === 1) return formatNumber(s.median);
  return `${formatNumber(s.median)} [${formatNumber(s.min)}–${formatNumber(s.max)}]`;
}
