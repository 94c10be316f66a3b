import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../src/metrics/registry.js';

describe('MetricsRegistry', () => {
  it('writes the stability level before the help text and every declared label, in name order', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_requests_total', help: 'Requests.', stability: 'STABLE', labelNames: ['verb', 'code'] });
    c.inc({ verb: 'GET' });
    c.inc({ verb: 'GET' }, 2);
    const text = await r.text();
    expect(text).toContain('# HELP demo_requests_total [STABLE] Requests.\n# TYPE demo_requests_total counter\n');
    expect(text).toContain('demo_requests_total{code="",verb="GET"} 3\n');
  });

  it('sums the series whose labels include the ones asked for', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_total', help: 'x', labelNames: ['verb', 'resource'] });
    c.inc({ verb: 'LIST', resource: 'pods' });
    c.inc({ verb: 'LIST', resource: 'nodes' });
    c.inc({ verb: 'GET', resource: 'pods' });
    expect(await r.value('demo_total', { verb: 'LIST' })).toBe(2);
    expect(await r.value('demo_total')).toBe(3);
    expect(await r.value('never_declared')).toBe(0);
  });

  it('counts a histogram by its observations and sums them under _sum', async () => {
    const r = new MetricsRegistry();
    const h = r.histogram({ name: 'demo_seconds', help: 'x', buckets: [0.1, 1] });
    h.observe({}, 0.05);
    h.observe({}, 0.5);
    expect(await r.value('demo_seconds')).toBe(2);
    expect(await r.value('demo_seconds_sum')).toBeCloseTo(0.55);
    expect(await r.text()).toContain('demo_seconds_bucket{le="0.1"} 1\n');
  });

  it('keeps a summary without quantiles as a count and a sum per series, in every format, until reset', async () => {
    const r = new MetricsRegistry();
    const s = r.summary({ name: 'demo_step_seconds', help: 'Steps.', labelNames: ['type', 'operation'], quantiles: [] });
    s.observe({ type: 'admit', operation: 'CREATE' }, 0.25);
    s.observe({ type: 'admit', operation: 'CREATE' }, 0.5);
    s.observe({ type: 'validate', operation: 'CREATE' }, 1);
    expect(await r.value('demo_step_seconds')).toBe(3);
    expect(await r.value('demo_step_seconds', { type: 'admit' })).toBe(2);
    expect(await r.value('demo_step_seconds_sum', { type: 'admit' })).toBe(0.75);
    const text = await r.text();
    expect(text).toContain('# TYPE demo_step_seconds summary\n');
    expect(text).toContain('demo_step_seconds_sum{operation="CREATE",type="admit"} 0.75\n');
    expect(text).toContain('demo_step_seconds_count{operation="CREATE",type="admit"} 2\n');
    expect(text).toContain('demo_step_seconds_count{operation="CREATE",type="validate"} 1\n');
    expect(text).not.toContain('quantile=');
    const open = await r.openMetricsText();
    expect(open).toContain('demo_step_seconds_count{operation="CREATE",type="admit"} 2\n');
    expect(() => s.observe({ type: 'admit' }, NaN)).toThrow('summary demo_step_seconds: cannot observe NaN');
    r.resetMetrics();
    expect(await r.value('demo_step_seconds')).toBe(0);
    expect(await r.text()).not.toContain('demo_step_seconds_count{');
    // A summary without labels has its one series before any observation, as client_golang's.
    r.summary({ name: 'demo_plain_seconds', help: 'x', quantiles: [] });
    expect(await r.text()).toContain('demo_plain_seconds_count 0\n');
  });

  it('hands out a summary series with `with`, counted with the same series observed by labels, before and after a reset', async () => {
    const r = new MetricsRegistry();
    const s = r.summary({ name: 'demo_step_seconds', help: 'Steps.', labelNames: ['type', 'operation'], quantiles: [] });
    const admit = s.with({ type: 'admit', operation: 'CREATE' });
    s.with({ type: 'validate', operation: 'CREATE' });
    // A series handed out but never observed is not exposed.
    expect(await r.text()).not.toContain('demo_step_seconds_count{');
    admit.observe(0.25);
    s.observe({ type: 'admit', operation: 'CREATE' }, 0.5);
    admit.observe(1);
    expect(await r.value('demo_step_seconds', { type: 'admit' })).toBe(3);
    expect(await r.value('demo_step_seconds_sum', { type: 'admit' })).toBe(1.75);
    expect(await r.text()).not.toContain('type="validate"');
    expect(() => admit.observe(Infinity)).toThrow('summary demo_step_seconds: cannot observe Infinity');
    r.resetMetrics();
    expect(await r.value('demo_step_seconds')).toBe(0);
    admit.observe(2);
    expect(await r.value('demo_step_seconds', { type: 'admit' })).toBe(1);
    expect(await r.text()).toContain('demo_step_seconds_sum{operation="CREATE",type="admit"} 2\n');
    // With quantiles, the handle feeds the same digest as an observation by labels.
    const q = r.summary({ name: 'demo_q_seconds', help: 'x', labelNames: ['type'], quantiles: [0.5] });
    const h = q.with({ type: 'a' });
    for (const v of [1, 2, 3]) h.observe(v);
    q.observe({ type: 'a' }, 4);
    expect(await r.value('demo_q_seconds', { type: 'a' })).toBe(4);
    expect(await r.value('demo_q_seconds_sum', { type: 'a' })).toBe(10);
  });

  it('hands out a series with `with`, counted with the others and kept across reads and resets', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_decisions_total', help: 'x', labelNames: ['decision', 'name'] });
    const allowed = c.with({ decision: 'allowed', name: 'rbac' });
    const denied = c.with({ decision: 'denied', name: 'rbac' });
    // A series handed out but never counted is not exposed, as one never increased is not.
    expect(await r.text()).not.toContain('decision="denied"');
    allowed.inc();
    allowed.inc(2);
    c.inc({ decision: 'allowed', name: 'rbac' });
    expect(await r.value('demo_decisions_total', { decision: 'allowed' })).toBe(4);
    allowed.inc();
    expect(await r.value('demo_decisions_total', { decision: 'allowed' })).toBe(5);
    expect(() => allowed.inc(-1)).toThrow('counter demo_decisions_total: cannot add -1');
    // Adding 0 makes the series, as client_golang's Add(0).
    denied.inc(0);
    expect(await r.text()).toContain('demo_decisions_total{decision="denied",name="rbac"} 0\n');
    r.resetMetrics();
    expect(await r.value('demo_decisions_total')).toBe(0);
    allowed.inc();
    expect(await r.value('demo_decisions_total', { decision: 'allowed' })).toBe(1);

    const h = r.histogram({ name: 'demo_latency_seconds', help: 'x', labelNames: ['result'], buckets: [0.1, 1] });
    const ok = h.with({ result: 'success' });
    ok.observe(0.05);
    h.observe({ result: 'success' }, 0.5);
    expect(await r.value('demo_latency_seconds', { result: 'success' })).toBe(2);
    expect(await r.text()).toContain('demo_latency_seconds_bucket{le="0.1",result="success"} 1\n');
    expect(() => ok.observe(Infinity)).toThrow('histogram demo_latency_seconds: cannot observe Infinity');
    r.resetMetrics();
    ok.observe(2);
    expect(await r.value('demo_latency_seconds')).toBe(1);
    expect(await r.text()).toContain('demo_latency_seconds_bucket{le="+Inf",result="success"} 1\n');
  });

  it('hands out series that count nothing when disabled, and native ones with native histograms', async () => {
    const off = new MetricsRegistry({ disabled: true });
    off.counter({ name: 'demo_total', help: 'x' }).with().inc();
    off
      .histogram({ name: 'demo_seconds', help: 'x', buckets: [1] })
      .with({})
      .observe(1);
    expect(await off.samples()).toEqual([]);
    const native = new MetricsRegistry({ nativeHistograms: true });
    native
      .histogram({ name: 'demo_seconds', help: 'x', labelNames: ['result'], buckets: [1] })
      .with({ result: 'ok' })
      .observe(0.5);
    expect(await native.value('demo_seconds', { result: 'ok' })).toBe(1);
    expect(native.nativeHistogram('demo_seconds')).toBeDefined();
  });

  it('returns the first declaration of a name and refuses one of another type', () => {
    const r = new MetricsRegistry();
    const a = r.counter({ name: 'demo_total', help: 'x' });
    expect(r.counter({ name: 'demo_total', help: 'x' })).toBe(a);
    expect(() => r.gauge({ name: 'demo_total', help: 'x' })).toThrow('metric demo_total is already declared as a counter');
  });

  it('runs collectors before it is read, and keeps two registries apart', async () => {
    const r = new MetricsRegistry();
    const other = new MetricsRegistry();
    const g = r.gauge({ name: 'demo_objects', help: 'x', labelNames: ['resource'] });
    other.gauge({ name: 'demo_objects', help: 'x', labelNames: ['resource'] }).set({ resource: 'pods' }, 9);
    let stored = 4;
    r.onCollect(() => g.set({ resource: 'pods' }, stored));
    expect(await r.value('demo_objects')).toBe(4);
    stored = 5;
    expect(await r.text()).toContain('demo_objects{resource="pods"} 5\n');
    expect(await other.value('demo_objects')).toBe(9);
  });

  it('writes OpenMetrics with its end marker', async () => {
    const r = new MetricsRegistry();
    r.counter({ name: 'demo_total', help: 'x' }).inc();
    const text = await r.openMetricsText();
    expect(text).toContain('# TYPE demo counter\n');
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
  });
});

describe('a disabled MetricsRegistry', () => {
  it('counts nothing and reads as empty', async () => {
    const r = new MetricsRegistry({ disabled: true });
    r.counter({ name: 'demo_total', help: 'x' }).inc();
    r.histogram({ name: 'demo_seconds', help: 'x', buckets: [1] }).observe({}, 2);
    expect(r.enabled).toBe(false);
    expect(await r.value('demo_total')).toBe(0);
    expect((await r.text()).trim()).toBe('');
  });
});

describe('MetricsRegistry formats one after another', () => {
  it('keeps the counters of the text format whole after an OpenMetrics answer', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_requests_total', help: 'x', labelNames: ['verb'] });
    c.inc({ verb: 'GET' });
    const [open, text] = await Promise.all([r.openMetricsText(), r.text()]);
    expect(open).toContain('demo_requests_total{verb="GET"} 1\n');
    expect(text).toContain('# TYPE demo_requests_total counter\ndemo_requests_total{verb="GET"} 1\n');
    c.inc({ verb: 'GET' });
    expect(await r.text()).toContain('demo_requests_total{verb="GET"} 2\n');
    expect(await r.value('demo_requests_total')).toBe(2);
  });
});

describe('counts kept until read', () => {
  it('reads every increment and observation made between reads, series by series', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_total', help: 'x', labelNames: ['verb', 'code'] });
    const h = r.histogram({ name: 'demo_seconds', help: 'x', labelNames: ['verb'], buckets: [0.1, 1] });
    for (let i = 0; i < 10; i++) {
      c.inc({ verb: 'GET', code: '200' });
      h.observe({ verb: 'GET' }, i < 5 ? 0.05 : 5);
    }
    c.inc({ verb: 'GET', code: '404' }, 2);
    expect(await r.value('demo_total', { verb: 'GET' })).toBe(12);
    h.observe({ verb: 'GET' }, 0.5);
    const text = await r.text();
    expect(text).toContain('demo_seconds_bucket{le="0.1",verb="GET"} 5\n');
    expect(text).toContain('demo_seconds_bucket{le="1",verb="GET"} 6\n');
    expect(text).toContain('demo_seconds_count{verb="GET"} 11\n');
    expect(await r.value('demo_seconds_sum')).toBeCloseTo(25.75);
  });

  it('refuses a negative increment or a value that is not a number at once', () => {
    const r = new MetricsRegistry();
    expect(() => r.counter({ name: 'demo_total', help: 'x' }).inc({}, -1)).toThrow('counter demo_total: cannot add -1');
    expect(() => r.histogram({ name: 'demo_seconds', help: 'x', buckets: [1] }).observe({}, Number.NaN)).toThrow('cannot observe NaN');
  });

  it('empties everything on resetMetrics, then counts again', async () => {
    const r = new MetricsRegistry();
    const c = r.counter({ name: 'demo_total', help: 'x' });
    const h = r.histogram({ name: 'demo_seconds', help: 'x', buckets: [1] });
    c.inc();
    h.observe({}, 0.5);
    expect(await r.value('demo_seconds')).toBe(1);
    h.observe({}, 0.5);
    r.resetMetrics();
    expect(await r.value('demo_total')).toBe(0);
    expect(await r.value('demo_seconds')).toBe(0);
    h.observe({}, 2);
    c.inc();
    expect(await r.value('demo_seconds')).toBe(1);
    expect(await r.value('demo_total')).toBe(1);
  });
});
