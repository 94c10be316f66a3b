/**
 * Native histograms kept beside the classic buckets of a histogram, one state per series, as
 * client_golang's histogram keeps them when a bucket factor is set: exponential buckets at a
 * schema, a zero bucket, and a limit on the number of populated buckets enforced the way
 * client_golang's limitBuckets does (reset, then a wider zero bucket, then a coarser schema).
 */
import { bucketKey, bucketUpperBound, halvedKey, NATIVE_SCHEMA_MIN, pickSchema } from './native-bucket-math.js';

/** client_golang's DefNativeHistogramZeroThreshold: 2^-128. */
export const DEFAULT_NATIVE_ZERO_THRESHOLD = 2.938735877055719e-39;

/**
 * How a registry's native histograms are shaped.
 * @category Metrics, health and tracing
 */
export interface NativeHistogramConfig {
  /** The largest growth factor from one bucket to the next (picks the schema). */
  readonly bucketFactor: number;
  /** Populated buckets (positive and negative) above which the resolution is reduced; 0: no limit. */
  readonly maxBucketNumber: number;
  /** Observations with an absolute value at most this count in the zero bucket. */
  readonly zeroThreshold: number;
  /** How far the zero bucket may widen to stay under the bucket limit; at or below zeroThreshold: never. */
  readonly maxZeroThreshold: number;
  /**
   * After this long since the series was created or last reset, exceeding the bucket limit resets
   * the whole series instead (classic buckets too), and any widening or coarsening done in between
   * is undone once it has passed; 0: never reset.
   */
  readonly minResetDurationMs: number;
}

/**
 * What Kubernetes' component-base configures with the NativeHistograms gate on
 * (component-base/metrics/internal: bucket factor 1.1, at most 160 buckets). It leaves the zero
 * threshold, the maximum zero threshold and the minimum reset duration unset, so client_golang's
 * defaults apply: a zero threshold of 2^-128, a zero bucket that never widens, and no reset (an
 * overflowing series only loses resolution).
 */
export const KUBERNETES_NATIVE_HISTOGRAMS: NativeHistogramConfig = {
  bucketFactor: 1.1,
  maxBucketNumber: 160,
  zeroThreshold: DEFAULT_NATIVE_ZERO_THRESHOLD,
  maxZeroThreshold: 0,
  minResetDurationMs: 0,
};

/**
 * A run of consecutive buckets: `offset` from the end of the previous span (or from key 0).
 * @category Metrics, health and tracing
 */
export interface NativeBucketSpan {
  readonly offset: number;
  readonly length: number;
}

/**
 * A native histogram as the protobuf exposition writes it.
 * @category Metrics, health and tracing
 */
export interface NativeHistogramSnapshot {
  readonly schema: number;
  readonly zeroThreshold: number;
  readonly zeroCount: number;
  /** Observations counted (NaN ones included, which land in no bucket). */
  readonly count: number;
  readonly sum: number;
  readonly positiveSpans: readonly NativeBucketSpan[];
  /** Each bucket's count as the difference to the previous bucket's (the first's to 0). */
  readonly positiveDeltas: readonly number[];
  readonly negativeSpans: readonly NativeBucketSpan[];
  readonly negativeDeltas: readonly number[];
  /** When the series was created or last reset (ms since the epoch). */
  readonly createdMs: number;
}

/**
 * The native state of one series.
 * @category Metrics, health and tracing
 */
export class NativeHistogramSeries {
  private schema: number;
  private zeroThreshold: number;
  private zeroCount = 0;
  private count = 0;
  private sum = 0;
  private readonly positive = new Map<number, number>();
  private readonly negative = new Map<number, number>();
  private lastResetMs: number;
  /** Set when the series widened or coarsened with a reset duration configured. */
  private resetDue = false;

  constructor(
    private readonly config: NativeHistogramConfig,
    private readonly initialSchema: number,
    now: number,
  ) {
    this.schema = initialSchema;
    this.zeroThreshold = config.zeroThreshold;
    this.lastResetMs = now;
  }

  /**
   * Whether a reset scheduled by an earlier widening or coarsening is due at `now`; if so the series
   * is back at its initial state and the caller must reset the classic series too.
   */
  resetIfDue(now: number): boolean {
    if (!this.resetDue || now - this.lastResetMs < this.config.minResetDurationMs) return false;
    this.reset(now);
    return true;
  }

  /**
   * Counts one observation. Returns true when the bucket limit made the whole series reset (to
   * this one observation): the caller then resets the classic series and observes it again there.
   */
  observe(value: number, now: number): boolean {
    this.add(value);
    if (Number.isNaN(value)) return false;
    return this.limitBuckets(value, now);
  }

  /** The state as the exposition writes it. */
  snapshot(): NativeHistogramSnapshot {
    const positive = spansAndDeltas(this.positive);
    const negative = spansAndDeltas(this.negative);
    // A histogram with no observations and a zero threshold of 0 would look classic to a scraper:
    // an empty span marks it native (client_golang's Write does the same).
    const positiveSpans =
      this.zeroThreshold === 0 && this.zeroCount === 0 && positive.spans.length === 0 && negative.spans.length === 0
        ? [{ offset: 0, length: 0 }]
        : positive.spans;
    return {
      schema: this.schema,
      zeroThreshold: this.zeroThreshold,
      zeroCount: this.zeroCount,
      count: this.count,
      sum: this.sum,
      positiveSpans,
      positiveDeltas: positive.deltas,
      negativeSpans: negative.spans,
      negativeDeltas: negative.deltas,
      createdMs: this.lastResetMs,
    };
  }

  /** Populated buckets, positive and negative. */
  get bucketCount(): number {
    return this.positive.size + this.negative.size;
  }

  private add(value: number): void {
    this.count += 1;
    this.sum += value;
    if (Number.isNaN(value)) return;
    if (value > this.zeroThreshold) increment(this.positive, bucketKey(value, this.schema), 1);
    else if (value < -this.zeroThreshold) increment(this.negative, bucketKey(value, this.schema), 1);
    else this.zeroCount += 1;
  }

  /** client_golang's limitBuckets: reset if allowed, else widen the zero bucket, else halve the resolution. */
  private limitBuckets(value: number, now: number): boolean {
    const max = this.config.maxBucketNumber;
    if (max === 0 || this.bucketCount <= max) return false;
    const resetAfter = this.config.minResetDurationMs;
    if (resetAfter > 0 && !this.resetDue && now - this.lastResetMs >= resetAfter) {
      this.reset(now);
      this.add(value);
      return true;
    }
    if (resetAfter > 0) this.resetDue = true;
    if (this.widenZeroBucket()) return false;
    this.halveResolution();
    return false;
  }

  /** Merges the bucket(s) closest to zero into the zero bucket, if the maximum threshold allows. */
  private widenZeroBucket(): boolean {
    if (this.zeroThreshold >= this.config.maxZeroThreshold) return false;
    const smallest = Math.min(...this.positive.keys(), ...this.negative.keys());
    if (smallest === Infinity) return false;
    const threshold = bucketUpperBound(smallest, this.schema);
    if (threshold > this.config.maxZeroThreshold) return false;
    this.zeroThreshold = threshold;
    for (const side of [this.positive, this.negative]) {
      this.zeroCount += side.get(smallest) ?? 0;
      side.delete(smallest);
    }
    return true;
  }

  /** Decrements the schema (down to -4), merging each pair of neighbouring buckets. */
  private halveResolution(): void {
    if (this.schema <= NATIVE_SCHEMA_MIN) return;
    this.schema -= 1;
    for (const side of [this.positive, this.negative]) {
      const old = [...side];
      side.clear();
      for (const [key, n] of old) increment(side, halvedKey(key), n);
    }
  }

  private reset(now: number): void {
    this.schema = this.initialSchema;
    this.zeroThreshold = this.config.zeroThreshold;
    this.zeroCount = 0;
    this.count = 0;
    this.sum = 0;
    this.positive.clear();
    this.negative.clear();
    this.lastResetMs = now;
    this.resetDue = false;
  }
}

/** What a vector of native series tells its owner about the classic series of the same labels. */
export interface NativeHistogramVecHooks<K> {
  /** The classic series of these labels must start over (a native reset). */
  resetClassic(labels: K): void;
}

/**
 * The native states of one histogram's series, by label values.
 * @category Metrics, health and tracing
 */
export class NativeHistogramVec<K> {
  private readonly series = new Map<string, { labels: K; state: NativeHistogramSeries }>();
  private readonly schema: number;

  constructor(
    private readonly config: NativeHistogramConfig,
    private readonly hooks: NativeHistogramVecHooks<K>,
    private readonly now: () => number = Date.now,
  ) {
    this.schema = pickSchema(config.bucketFactor);
  }

  /**
   * Counts one observation of the series `key` in the native state and, through `observeClassic`,
   * in the classic one (called once, or twice when the native series reset to this observation).
   * A throwing `observeClassic` (an invalid value) leaves the native state untouched.
   */
  observe(key: string, labels: K, value: number, observeClassic: () => void): void {
    const now = this.now();
    const entry = this.entry(key, labels, now);
    if (entry.state.resetIfDue(now)) this.hooks.resetClassic(labels);
    observeClassic();
    if (entry.state.observe(value, now)) {
      this.hooks.resetClassic(labels);
      observeClassic();
    }
  }

  /** Applies the resets that came due since the last observation (before a scrape). */
  settle(): void {
    const now = this.now();
    for (const { labels, state } of this.series.values()) if (state.resetIfDue(now)) this.hooks.resetClassic(labels);
  }

  /** The native state of a series, if it has been observed. */
  get(key: string): NativeHistogramSeries | undefined {
    return this.series.get(key)?.state;
  }

  private entry(key: string, labels: K, now: number): { labels: K; state: NativeHistogramSeries } {
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, state: new NativeHistogramSeries(this.config, this.schema, now) };
      this.series.set(key, entry);
    }
    return entry;
  }
}

function increment(buckets: Map<number, number>, key: number, by: number): void {
  buckets.set(key, (buckets.get(key) ?? 0) + by);
}

/**
 * Sorted buckets as spans and deltas (client_golang's makeBuckets): a gap of one or two empty
 * buckets is written as zero-count buckets inside the span, a longer gap starts a new span.
 */
export function spansAndDeltas(buckets: ReadonlyMap<number, number>): { spans: NativeBucketSpan[]; deltas: number[] } {
  const keys = [...buckets.keys()].sort((a, b) => a - b);
  const spans: Array<{ offset: number; length: number }> = [];
  const deltas: number[] = [];
  let previousCount = 0;
  let nextKey = 0;
  const append = (count: number): void => {
    spans[spans.length - 1]!.length += 1;
    deltas.push(count - previousCount);
    previousCount = count;
  };
  keys.forEach((key, n) => {
    const gap = key - nextKey;
    if (n === 0 || gap > 2) spans.push({ offset: gap, length: 0 });
    else for (let i = 0; i < gap; i++) append(0);
    append(buckets.get(key)!);
    nextKey = key + 1;
  });
  return { spans, deltas };
}
