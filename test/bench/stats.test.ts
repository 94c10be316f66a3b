import { describe, expect, it } from 'vitest';
import { figure, meets, timePerOp } from '../../bench/figure.js';
import { formatNumber, formatSummary, pairedRatios, percentiles, quantile, summarize } from '../../bench/stats.js';
import { benchConfigMap, CONFIGMAP_JSON_BYTES } from '../../bench/configmap.js';

describe('bench stats', () => {
  it('interpolates quantiles between ranks', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.25)).toBe(20);
    expect(quantile([10, 20], 0.9)).toBe(19);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('summarizes samples as median and spread, whatever their order', () => {
    expect(summarize([5, 1, 4, 2, 3])).toEqual({ n: 5, median: 3, min: 1, max: 5, p25: 2, p75: 4 });
    expect(summarize([]).n).toBe(0);
    expect(summarize([]).median).toBeNaN();
  });

  it('gives latency percentiles and the mean without reordering the input', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
    const p = percentiles(samples);
    expect(p.p50).toBeCloseTo(50.5);
    expect(p.p90).toBeCloseTo(90.1);
    expect(p.p99).toBeCloseTo(99.01);
    expect(p.max).toBe(100);
    expect(p.mean).toBeCloseTo(50.5);
    expect(samples[0]).toBe(100);
  });

  it('pairs ratios round by round and refuses unequal lengths', () => {
    expect(pairedRatios([2, 9], [1, 3])).toEqual([2, 3]);
    expect(() => pairedRatios([1], [1, 2])).toThrow(/differ in length/);
  });

  it('formats numbers for the table', () => {
    expect(formatNumber(123456.7)).toBe('123,457');
    expect(formatNumber(0.012345)).toBe('0.0123');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatSummary(summarize([1, 2, 3]))).toBe('2 [1–3]');
  });
});

describe('bench figures', () => {
  it('judges the median of the per-round ratios against the target', () => {
    // Round ratios 0.5, 0.7, 0.8: median 0.7 meets ">= 0.6" although one round does not.
    const f = figure({ id: 'x', title: 'x', unit: 'req/s', baselineName: 'b', target: { op: '>=', ratio: 0.6 } }, [50, 70, 80], [100, 100, 100]);
    expect(f.ratio.median).toBeCloseTo(0.7);
    expect(f.ratio.min).toBeCloseTo(0.5);
    expect(f.met).toBe(true);
    expect(meets(3.1, { op: '<=', ratio: 3 })).toBe(false);
    expect(meets(3, { op: '<=', ratio: 3 })).toBe(true);
    const noTarget = figure({ id: 'y', title: 'y', unit: 'ops/s', baselineName: 'b' }, [1], [2]);
    expect(noTarget.met).toBeUndefined();
  });

  it('times an operation for at least the given time and answers microseconds per call', async () => {
    let calls = 0;
    const t0 = performance.now();
    const us = await timePerOp(20, () => {
      calls++;
    });
    const elapsedMs = performance.now() - t0;
    expect(elapsedMs).toBeGreaterThanOrEqual(20);
    expect(calls % 8).toBe(0);
    expect(us * calls).toBeLessThanOrEqual(elapsedMs * 1000 + 1);
  });
});

describe('bench ConfigMap', () => {
  it('is 1 KB of JSON as sent, with or without labels', () => {
    expect(JSON.stringify(benchConfigMap('a')).length).toBe(CONFIGMAP_JSON_BYTES);
    expect(JSON.stringify(benchConfigMap('cm-12345', { tier: 'ten' }, 'default')).length).toBe(CONFIGMAP_JSON_BYTES);
  });
});
