import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { metricsAnswer } from '../../src/metrics/answer.js';
import { HealthChecks } from '../../src/metrics/health.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';

const PROMETHEUS_PROTO_FIRST =
  'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1';
const PROMETHEUS_OPENMETRICS_FIRST =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

function registryWithHistogram(nativeHistograms: boolean): MetricsRegistry {
  const r = new MetricsRegistry({ nativeHistograms });
  const h = r.histogram({ name: 'apiserver_request_duration_seconds', help: 'Latency.', stability: 'STABLE', labelNames: ['verb'], buckets: [0.1, 1] });
  h.observe({ verb: 'GET' }, 0.05);
  h.observe({ verb: 'GET' }, 3);
  return r;
}

const text = (body: Uint8Array | string): string => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

describe('metricsAnswer', () => {
  it('answers the text format 0.0.4 by default, as a string', async () => {
    const a = await metricsAnswer(registryWithHistogram(false), { accept: '*/*' });
    expect(a.status).toBe(200);
    expect(a.headers).toEqual({ 'content-type': 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores' });
    expect(typeof a.body).toBe('string');
    expect(a.body).toContain('# HELP apiserver_request_duration_seconds [STABLE] Latency.');
    expect(a.body).toContain('apiserver_request_duration_seconds_bucket{le="+Inf",verb="GET"} 2');
  });

  it('answers OpenMetrics when Prometheus prefers it', async () => {
    const a = await metricsAnswer(registryWithHistogram(false), { accept: PROMETHEUS_OPENMETRICS_FIRST });
    expect(a.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8; escaping=underscores');
    expect(text(a.body).trimEnd().endsWith('# EOF')).toBe(true);
  });

  it('answers protobuf bytes when Prometheus prefers it', async () => {
    const a = await metricsAnswer(registryWithHistogram(false), { accept: PROMETHEUS_PROTO_FIRST });
    expect(a.headers['content-type']).toBe(
      'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited; escaping=underscores',
    );
    expect(a.body).toBeInstanceOf(Uint8Array);
    expect(text(a.body)).toContain('apiserver_request_duration_seconds');
  });

  it('keeps native histograms out of the text formats: only classic _bucket, _sum and _count series', async () => {
    const withNative = registryWithHistogram(true);
    const without = registryWithHistogram(false);
    expect((await metricsAnswer(withNative)).body).toBe((await metricsAnswer(without)).body);
    const om = text((await metricsAnswer(withNative, { accept: PROMETHEUS_OPENMETRICS_FIRST })).body);
    expect(om).toBe(text((await metricsAnswer(without, { accept: PROMETHEUS_OPENMETRICS_FIRST })).body));
    for (const line of om.split('\n').filter((l) => l && !l.startsWith('#'))) expect(line).toMatch(/^apiserver_request_duration_seconds_(bucket|sum|count)\{/);
  });

  it('carries native histograms in protobuf only with the gate on', async () => {
    const on = (await metricsAnswer(registryWithHistogram(true), { accept: PROMETHEUS_PROTO_FIRST })).body as Uint8Array;
    const off = (await metricsAnswer(registryWithHistogram(false), { accept: PROMETHEUS_PROTO_FIRST })).body as Uint8Array;
    // Native histograms add the schema (field 5: tag 0x28, zigzag 3 = 6) to the Histogram message.
    expect(Buffer.from(on).includes(Buffer.from([0x28, 0x06]))).toBe(true);
    expect(on.length).toBeGreaterThan(off.length);
  });

  it('applies a native reset that came due before answering, in the text formats too', async () => {
    let now = 0;
    const clock = { now: () => now };
    const r = new MetricsRegistry({ nativeHistograms: true, clock, nativeHistogramConfig: { maxBucketNumber: 1, minResetDurationMs: 60_000 } });
    const h = r.histogram({ name: 'x_seconds', help: 'x', buckets: [1] });
    h.observe({}, 0.5);
    h.observe({}, 5); // over the limit before the reset duration: resolution drops, a reset is due at 60 s
    expect((await metricsAnswer(r)).body).toContain('x_seconds_count 2');
    now = 60_000;
    // The series stays, started over (client_golang's reset keeps it at zero).
    expect((await metricsAnswer(r)).body).toContain('x_seconds_count 0');
  });

  it('gzips when the client accepts it, and says so', async () => {
    const plain = await metricsAnswer(registryWithHistogram(false));
    const a = await metricsAnswer(registryWithHistogram(false), { acceptEncoding: 'gzip, deflate' });
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(a.headers['content-type']).toBe(plain.headers['content-type']);
    expect(gunzipSync(a.body as Uint8Array).toString('utf8')).toBe(plain.body);
    const proto = await metricsAnswer(registryWithHistogram(true), { accept: PROMETHEUS_PROTO_FIRST, acceptEncoding: 'gzip' });
    expect(gunzipSync(proto.body as Uint8Array).includes(Buffer.from('apiserver_request_duration_seconds'))).toBe(true);
  });

  it('answers hostile headers with the text format instead of throwing', async () => {
    for (const accept of ['\u0000\uffff', ';;;;', 'application/vnd.google.protobuf;proto=;encoding=', 'x'.repeat(100_000), '*/*;q=NaN']) {
      const a = await metricsAnswer(registryWithHistogram(false), { accept, acceptEncoding: accept });
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(a.headers['content-encoding']).toBeUndefined();
    }
  });

  it('answers 500 naming the error when a collector fails, as promhttp', async () => {
    const r = new MetricsRegistry();
    r.onCollect(() => {
      throw new Error('storage unavailable');
    });
    for (const accept of [undefined, PROMETHEUS_PROTO_FIRST]) {
      const a = await metricsAnswer(r, { accept, acceptEncoding: 'gzip' });
      expect(a.status).toBe(500);
      expect(a.headers).toEqual({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
      expect(a.body).toBe('An error has occurred while serving metrics:\n\nstorage unavailable\n');
    }
  });

  it('serves the SLI registry of the health checks', async () => {
    const checks = new HealthChecks({ healthz: [{ name: 'ping', check: () => undefined }] });
    await checks.answer('/healthz', new URLSearchParams());
    const a = await metricsAnswer(checks.slis!);
    expect(a.body).toContain('cluster_healthcheck{name="ping",type="healthz"} 1');
    expect(a.body).toContain('cluster_healthchecks_total{name="ping",status="success",type="healthz"} 1');
  });
});
