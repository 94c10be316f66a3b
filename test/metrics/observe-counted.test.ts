/** Histogram observations handed over already counted per bucket read as the same observations made one by one. */
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../src/metrics/registry.js';

describe('HistogramMetric.observeCounted', () => {
  it('adds counts per bucket, the sum and the count, as observe would', async () => {
    const one = new MetricsRegistry();
    const counted = new MetricsRegistry();
    const def = { name: 'x_seconds', help: 'h', labelNames: ['verb'] as const, buckets: [0.1, 1, 10] };
    const a = one.histogram(def);
    const b = counted.histogram(def);
    for (const v of [0.05, 0.5, 0.7, 5, 50]) a.observe({ verb: 'GET' }, v);
    b.observeCounted({ verb: 'GET' }, [1, 2, 1, 1], 0.05 + 0.5 + 0.7 + 5 + 50);
    expect(await counted.text()).toBe(await one.text());
    b.observeCounted({ verb: 'GET' }, [0, 0, 0, 0], 0);
    b.observeCounted({ verb: 'PUT' }, [0, 0, 0, 0], 0);
    expect(await counted.text()).toBe(await one.text());
    b.observeCounted({ verb: 'GET' }, [1, 0, 0, 0], 0.01);
    expect(await counted.value('x_seconds', { verb: 'GET' })).toBe(6);
    expect(await counted.value('x_seconds_bucket', { verb: 'GET', le: '0.1' })).toBe(2);
  });
});

describe('observeCounted with native histograms on', () => {
  it('takes nothing counted, and refuses counts it cannot spread into native buckets', async () => {
    const r = new MetricsRegistry({ nativeHistograms: true });
    const h = r.histogram({ name: 'demo_seconds', help: 'x', buckets: [1] });
    h.observeCounted({}, [0, 0], 0);
    h.observe({}, 0.5);
    expect(await r.value('demo_seconds')).toBe(1);
    expect(() => h.observeCounted({}, [1, 0], 0.5)).toThrow('counted observations cannot feed native histograms');
  });
});
