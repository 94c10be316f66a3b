import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gatherMetricFamilies } from '../../src/metrics/metric-families.js';
import {
  DEFAULT_NATIVE_ZERO_THRESHOLD,
  KUBERNETES_NATIVE_HISTOGRAMS,
  NativeHistogramSeries,
  NativeHistogramVec,
  spansAndDeltas,
  type NativeHistogramConfig,
  type NativeHistogramSnapshot,
} from '../../src/metrics/native-histogram.js';
import { MetricsRegistry, nativeSeriesKey } from '../../src/metrics/registry.js';

const series = (config: Partial<NativeHistogramConfig> = {}, schema = 3): NativeHistogramSeries =>
  new NativeHistogramSeries({ ...KUBERNETES_NATIVE_HISTOGRAMS, ...config }, schema, 0);

/** Bucket counts by key, from spans and deltas. */
function counts(spans: NativeHistogramSnapshot['positiveSpans'], deltas: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  let key = 0;
  let count = 0;
  let d = 0;
  spans.forEach((span, i) => {
    key += i === 0 ? span.offset : span.offset;
    for (let j = 0; j < span.length; j++) {
      count += deltas[d++]!;
      if (count !== 0) out.set(key, count);
      key++;
    }
  });
  return out;
}

const total = (snap: NativeHistogramSnapshot): number =>
  snap.zeroCount +
  [...counts(snap.positiveSpans, snap.positiveDeltas).values(), ...counts(snap.negativeSpans, snap.negativeDeltas).values()].reduce((a, b) => a + b, 0);

describe("Kubernetes' native histogram settings", () => {
  it('are factor 1.1 and 160 buckets, with client_golang defaults for the rest', () => {
    expect(KUBERNETES_NATIVE_HISTOGRAMS).toEqual({
      bucketFactor: 1.1,
      maxBucketNumber: 160,
      zeroThreshold: 2 ** -128,
      maxZeroThreshold: 0,
      minResetDurationMs: 0,
    });
    expect(DEFAULT_NATIVE_ZERO_THRESHOLD).toBe(2 ** -128);
  });
});

describe('a native series', () => {
  it('counts zero, and values within the zero threshold either side, in the zero bucket', () => {
    const s = series();
    for (const v of [0, -0, 1e-40, -1e-40, 2 ** -128, -(2 ** -128)]) s.observe(v, 0);
    const snap = s.snapshot();
    expect(snap.zeroCount).toBe(6);
    expect(snap.positiveSpans).toEqual([]);
    expect(snap.negativeSpans).toEqual([]);
    expect(snap.zeroThreshold).toBe(2 ** -128);
    expect(snap.count).toBe(6);
  });

  it('puts values just above the zero threshold in buckets of their own', () => {
    const s = series();
    s.observe(2 ** -127, 0);
    // 2^-127 is the top of bucket -127*8 = -1016 at schema 3.
    expect(s.snapshot().positiveSpans).toEqual([{ offset: -1016, length: 1 }]);
    expect(s.snapshot().zeroCount).toBe(0);
  });

  it('counts negative values in negative buckets keyed by their absolute value', () => {
    const s = series();
    s.observe(-1, 0);
    s.observe(-1, 0);
    s.observe(-1.2, 0);
    s.observe(2, 0);
    const snap = s.snapshot();
    expect(snap.negativeSpans).toEqual([{ offset: 0, length: 4 }]);
    // bucket 0 twice, buckets 1 and 2 empty, bucket 3 (2^(2/8) < 1.2 <= 2^(3/8)) once
    expect(snap.negativeDeltas).toEqual([2, -2, 0, 1]);
    expect(snap.positiveSpans).toEqual([{ offset: 8, length: 1 }]);
    expect(snap.positiveDeltas).toEqual([1]);
    expect(snap.sum).toBeCloseTo(-1.2, 12);
  });

  it('ignores NaN in the buckets but counts and sums it, as client_golang', () => {
    const s = series();
    s.observe(NaN, 0);
    const snap = s.snapshot();
    expect(snap.count).toBe(1);
    expect(snap.sum).toBeNaN();
    expect(total(snap)).toBe(0);
  });

  it('marks an empty histogram with zero threshold 0 native with an empty span', () => {
    expect(series({ zeroThreshold: 0 }).snapshot().positiveSpans).toEqual([{ offset: 0, length: 0 }]);
    expect(series().snapshot().positiveSpans).toEqual([]);
  });
});

describe('spans and deltas', () => {
  it('keep gaps of up to two buckets inside a span and start a new span after longer ones', () => {
    expect(spansAndDeltas(new Map())).toEqual({ spans: [], deltas: [] });
    expect(spansAndDeltas(new Map([[-3, 4]]))).toEqual({ spans: [{ offset: -3, length: 1 }], deltas: [4] });
    expect(
      spansAndDeltas(
        new Map([
          [0, 2],
          [3, 5],
        ]),
      ),
    ).toEqual({ spans: [{ offset: 0, length: 4 }], deltas: [2, -2, 0, 5] });
    expect(
      spansAndDeltas(
        new Map([
          [4, 1],
          [0, 2],
          [8, 3],
        ]),
      ),
    ).toEqual({
      spans: [
        { offset: 0, length: 1 },
        { offset: 3, length: 1 },
        { offset: 3, length: 1 },
      ],
      deltas: [2, -1, 2],
    });
  });
});

describe('a native series over its bucket limit', () => {
  it('halves its resolution, merging neighbouring buckets and keeping every count', () => {
    const s = series({ maxBucketNumber: 4 });
    for (const v of [1, 1.1, 1.2, 1.3]) s.observe(v, 0); // buckets 0, 2, 3, 4 at schema 3
    expect(s.snapshot().schema).toBe(3);
    s.observe(1.5, 0); // bucket 5: five buckets, over the limit
    const snap = s.snapshot();
    expect(snap.schema).toBe(2);
    // schema 2: 1 -> 0, 1.1 -> 1, 1.2 and 1.3 -> 2, 1.5 -> 3
    expect(counts(snap.positiveSpans, snap.positiveDeltas)).toEqual(
      new Map([
        [0, 1],
        [1, 1],
        [2, 2],
        [3, 1],
      ]),
    );
    expect(total(snap)).toBe(5);
  });

  it('loses one step of resolution per observation, and stops at schema -4', () => {
    const s = series({ maxBucketNumber: 1 });
    s.observe(1, 0);
    s.observe(1e100, 0); // two buckets far apart: every further observation halves once more
    expect(s.snapshot().schema).toBe(2);
    for (let i = 0; i < 20; i++) s.observe(1e100, 0);
    const snap = s.snapshot();
    expect(snap.schema).toBe(-4);
    expect(s.bucketCount).toBe(2); // even 2^16-wide buckets cannot hold 1 and 1e100 together
    expect(total(snap)).toBe(22);
  });

  it('widens the zero bucket first when a maximum zero threshold allows it', () => {
    const s = series({ maxBucketNumber: 2, maxZeroThreshold: 0.5 });
    s.observe(0.1, 0);
    s.observe(1, 0);
    s.observe(2, 0); // three buckets: the one of 0.1 joins the zero bucket
    const snap = s.snapshot();
    expect(snap.schema).toBe(3);
    expect(snap.zeroCount).toBe(1);
    // 0.1 was in bucket -26 (2^(-27/8) = 0.0962 < 0.1 <= 2^(-26/8) = 0.1051)
    expect(snap.zeroThreshold).toBeCloseTo(2 ** (-26 / 8), 15);
    expect(s.bucketCount).toBe(2);
  });

  it('resets instead once the minimum reset duration has passed, keeping only the observation', () => {
    const s = series({ maxBucketNumber: 2, minResetDurationMs: 1000 });
    s.observe(1, 0);
    s.observe(2, 0);
    s.observe(4, 1000); // over the limit 1000 ms after creation: reset
    const snap = s.snapshot();
    expect(snap.count).toBe(1);
    expect(snap.sum).toBe(4);
    expect(snap.createdMs).toBe(1000);
    expect(snap.schema).toBe(3);
  });

  it('undoes a resolution reduction once the reset duration has passed since the last reset', () => {
    const s = series({ maxBucketNumber: 2, minResetDurationMs: 1000 });
    s.observe(1, 0);
    s.observe(2, 0);
    expect(s.observe(4, 10)).toBe(false); // too early to reset: resolution drops, a reset is due at 1000
    expect(s.snapshot().schema).toBe(2);
    expect(s.resetIfDue(999)).toBe(false);
    expect(s.resetIfDue(1000)).toBe(true);
    expect(s.snapshot()).toMatchObject({ schema: 3, count: 0, zeroCount: 0, positiveSpans: [], createdMs: 1000 });
  });
});

describe('a vector of native series', () => {
  it('resets the classic series with the native one and observes the value again there', () => {
    let now = 0;
    const events: string[] = [];
    const vec = new NativeHistogramVec<string>(
      { ...KUBERNETES_NATIVE_HISTOGRAMS, maxBucketNumber: 1, minResetDurationMs: 100 },
      { resetClassic: (l) => events.push(`reset ${l}`) },
      () => now,
    );
    const observe = (v: number): void => vec.observe('k', 'a', v, () => events.push(`classic ${v}`));
    observe(1);
    now = 150;
    observe(2); // over the limit after the reset duration: reset, then the value again
    expect(events).toEqual(['classic 1', 'classic 2', 'reset a', 'classic 2']);
    expect(vec.get('k')!.snapshot()).toMatchObject({ count: 1, sum: 2, createdMs: 150 });
  });

  it('leaves the native state alone when the classic observation throws', () => {
    const vec = new NativeHistogramVec<string>(KUBERNETES_NATIVE_HISTOGRAMS, { resetClassic: () => {} });
    expect(() =>
      vec.observe('k', 'a', 1, () => {
        throw new TypeError('bad value');
      }),
    ).toThrow(TypeError);
    expect(vec.get('k')!.snapshot().count).toBe(0);
  });
});

describe('a registry with native histograms', () => {
  it('keeps native state only with the gate on, per series', () => {
    const off = new MetricsRegistry();
    off.histogram({ name: 'h', help: 'h', buckets: [1] }).observe({}, 1);
    expect(off.nativeHistogram('h')).toBeUndefined();
    const disabled = new MetricsRegistry({ nativeHistograms: true, disabled: true });
    disabled.histogram({ name: 'h', help: 'h', buckets: [1] }).observe({}, 1);
    expect(disabled.nativeHistogram('h')).toBeUndefined();
    const on = new MetricsRegistry({ nativeHistograms: true });
    const h = on.histogram({ name: 'h', help: 'h', labelNames: ['verb'], buckets: [1] });
    h.observe({ verb: 'GET' }, 1);
    h.observe({ verb: 'GET' }, 2);
    h.observe({}, 4);
    const vec = on.nativeHistogram('h')!;
    expect(vec.get(nativeSeriesKey({ verb: 'GET' }))!.snapshot().count).toBe(2);
    expect(vec.get(nativeSeriesKey({ verb: '' }))!.snapshot().positiveSpans).toEqual([{ offset: 16, length: 1 }]);
  });

  it('rejects what prom-client rejects (non-finite values) without counting it natively', () => {
    const r = new MetricsRegistry({ nativeHistograms: true });
    const h = r.histogram({ name: 'h', help: 'h', buckets: [1] });
    expect(() => h.observe({}, NaN)).toThrow(TypeError);
    expect(() => h.observe({}, Infinity)).toThrow(TypeError);
    expect(r.nativeHistogram('h')!.get(nativeSeriesKey({}))!.snapshot().count).toBe(0);
  });

  it('keeps classic and native counts and sums consistent for any observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ route: fc.constantFrom('a', 'b'), v: fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, 2, 0.5, -1)) }),
          { maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 12 }),
        async (observations, maxBucketNumber) => {
          const r = new MetricsRegistry({ nativeHistograms: true, nativeHistogramConfig: { maxBucketNumber } });
          const h = r.histogram({ name: 'x_seconds', help: 'x', labelNames: ['route'], buckets: [-2, 0, 0.5, 1, 10] }); // not -1: prom-client counts values above every bound into a bucket named -1
          for (const o of observations) h.observe({ route: o.route }, o.v);
          const [family] = await gatherMetricFamilies(r);
          let seen = 0;
          for (const m of family!.metrics) {
            const hist = m.histogram!;
            const native = hist.native!;
            const route = m.labels[0]!.value;
            const mine = observations.filter((o) => o.route === route);
            seen += mine.length;
            expect(hist.count).toBe(mine.length);
            expect(native.count).toBe(mine.length);
            expect(total(native)).toBe(mine.length);
            expect(native.sum).toBeCloseTo(hist.sum, 6);
            expect(hist.buckets.at(-1)!.cumulativeCount).toBe(mine.filter((o) => o.v <= 10).length);
            expect(native.schema).toBeLessThanOrEqual(3);
          }
          expect(seen).toBe(observations.length);
        },
      ),
      { numRuns: 60 },
    );
  });
});
