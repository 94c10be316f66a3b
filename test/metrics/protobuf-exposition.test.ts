import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { gatherMetricFamilies } from '../../src/metrics/metric-families.js';
import { encodeMetricFamiliesDelimited } from '../../src/metrics/protobuf-exposition.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import type { ManualClock } from '../../src/clock.js';

// An independent decoder (protobufjs) from prometheus/client_model's metrics.proto field numbers.
// Timestamp stands in for google.protobuf.Timestamp (same fields).
const PROTO = `
syntax = "proto2";
package io.prometheus.client;
message LabelPair { optional string name = 1; optional string value = 2; }
enum MetricType { COUNTER = 0; GAUGE = 1; SUMMARY = 2; UNTYPED = 3; HISTOGRAM = 4; GAUGE_HISTOGRAM = 5; }
message Gauge { optional double value = 1; }
message Counter { optional double value = 1; }
message Quantile { optional double quantile = 1; optional double value = 2; }
message Summary { optional uint64 sample_count = 1; optional double sample_sum = 2; repeated Quantile quantile = 3; }
message Untyped { optional double value = 1; }
message Timestamp { optional int64 seconds = 1; optional int32 nanos = 2; }
message Histogram {
  optional uint64 sample_count = 1; optional double sample_count_float = 4; optional double sample_sum = 2;
  repeated Bucket bucket = 3; optional Timestamp created_timestamp = 15;
  optional sint32 schema = 5; optional double zero_threshold = 6; optional uint64 zero_count = 7; optional double zero_count_float = 8;
  repeated BucketSpan negative_span = 9; repeated sint64 negative_delta = 10; repeated double negative_count = 11;
  repeated BucketSpan positive_span = 12; repeated sint64 positive_delta = 13; repeated double positive_count = 14;
}
message Bucket { optional uint64 cumulative_count = 1; optional double cumulative_count_float = 4; optional double upper_bound = 2; }
message BucketSpan { optional sint32 offset = 1; optional uint32 length = 2; }
message Metric {
  repeated LabelPair label = 1; optional Gauge gauge = 2; optional Counter counter = 3; optional Summary summary = 4;
  optional Untyped untyped = 5; optional Histogram histogram = 7; optional int64 timestamp_ms = 6;
}
message MetricFamily { optional string name = 1; optional string help = 2; optional MetricType type = 3; repeated Metric metric = 4; optional string unit = 5; }
`;
const MetricFamilyType = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('io.prometheus.client.MetricFamily');

/** Every delimited MetricFamily in the bytes, as plain objects (longs as numbers, enums as names). */
function decodeAll(bytes: Uint8Array): any[] {
  const reader = protobuf.Reader.create(bytes);
  const out: any[] = [];
  while (reader.pos < reader.len) {
    const message = MetricFamilyType.decodeDelimited(reader);
    out.push(MetricFamilyType.toObject(message, { longs: Number, enums: String, defaults: false, arrays: false }));
  }
  return out;
}

async function scrape(r: MetricsRegistry): Promise<any[]> {
  return decodeAll(encodeMetricFamiliesDelimited(await gatherMetricFamilies(r)));
}

const fixedClock = (ms: number): ManualClock => ({ now: () => ms, advance() {}, set() {}, realTime: false });

describe('protobuf exposition, decoded by protobufjs', () => {
  it('writes counters and gauges with sorted families, label pairs and series', async () => {
    const r = new MetricsRegistry();
    const requests = r.counter({ name: 'b_requests_total', help: 'Requests.', stability: 'STABLE', labelNames: ['verb', 'code'] });
    requests.inc({ verb: 'LIST', code: '200' }, 3);
    requests.inc({ verb: 'GET', code: '404' });
    r.gauge({ name: 'a_inflight', help: 'In flight.' }).set({}, -2.5);
    const families = await scrape(r);
    expect(families.map((f) => f.name)).toEqual(['a_inflight', 'b_requests_total']);
    expect(families[0]).toEqual({ name: 'a_inflight', help: '[ALPHA] In flight.', type: 'GAUGE', metric: [{ gauge: { value: -2.5 } }] });
    expect(families[1]).toEqual({
      name: 'b_requests_total',
      help: '[STABLE] Requests.',
      type: 'COUNTER',
      metric: [
        {
          label: [
            { name: 'code', value: '200' },
            { name: 'verb', value: 'LIST' },
          ],
          counter: { value: 3 },
        },
        {
          label: [
            { name: 'code', value: '404' },
            { name: 'verb', value: 'GET' },
          ],
          counter: { value: 1 },
        },
      ],
    });
  });

  it('writes classic histogram buckets without the +Inf bucket and no native fields with the gate off', async () => {
    const r = new MetricsRegistry();
    const h = r.histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['verb'], buckets: [0.1, 1, 10] });
    for (const v of [0.05, 0.5, 0.7, 20]) h.observe({ verb: 'GET' }, v);
    const [family] = await scrape(r);
    expect(family.type).toBe('HISTOGRAM');
    expect(family.metric[0].histogram).toEqual({
      sample_count: 4,
      sample_sum: 21.25,
      bucket: [
        { cumulative_count: 1, upper_bound: 0.1 },
        { cumulative_count: 3, upper_bound: 1 },
        { cumulative_count: 3, upper_bound: 10 },
      ],
    });
  });

  it('writes native buckets beside the classic ones with the gate on', async () => {
    const r = new MetricsRegistry({ nativeHistograms: true, clock: fixedClock(1_700_000_000_250) });
    const h = r.histogram({ name: 'latency_seconds', help: 'Latency.', buckets: [1, 10] });
    for (const v of [1, 1, 2, -1.2, 0]) h.observe({}, v);
    const [family] = await scrape(r);
    expect(family.metric[0].histogram).toEqual({
      sample_count: 5,
      sample_sum: 2.8,
      bucket: [
        { cumulative_count: 4, upper_bound: 1 },
        { cumulative_count: 5, upper_bound: 10 },
      ],
      schema: 3,
      zero_threshold: 2 ** -128,
      zero_count: 1,
      negative_span: [{ offset: 3, length: 1 }],
      negative_delta: [1],
      positive_span: [
        { offset: 0, length: 1 },
        { offset: 7, length: 1 },
      ],
      positive_delta: [2, -1],
      created_timestamp: { seconds: 1_700_000_000, nanos: 250_000_000 },
    });
  });

  it('writes a lowered schema and negative offsets as zigzag varints', async () => {
    const r = new MetricsRegistry({ nativeHistograms: true, nativeHistogramConfig: { maxBucketNumber: 1 } });
    const h = r.histogram({ name: 'x', help: 'x', buckets: [1] });
    h.observe({}, 0.001);
    h.observe({}, 1000); // over the limit of one bucket: schema 2
    const hist = (await scrape(r))[0].metric[0].histogram;
    expect(hist.schema).toBe(2);
    // 0.001: bucket -79 at schema 3, -39 at schema 2; 1000: bucket 80, then 40.
    expect(hist.positive_span).toEqual([
      { offset: -39, length: 1 },
      { offset: 78, length: 1 },
    ]);
    expect(hist.positive_delta).toEqual([1, 0]);
  });

  it('writes summaries with their quantiles', async () => {
    const r = new MetricsRegistry();
    const s = r.summary({ name: 'step_seconds', help: 'Steps.', labelNames: ['type'], quantiles: [0.5, 0.9] });
    for (let i = 1; i <= 10; i++) s.observe({ type: 'admit' }, i);
    const [family] = await scrape(r);
    expect(family.type).toBe('SUMMARY');
    const metric = family.metric[0];
    expect(metric.label).toEqual([{ name: 'type', value: 'admit' }]);
    expect(metric.summary.sample_count).toBe(10);
    expect(metric.summary.sample_sum).toBe(55);
    expect(metric.summary.quantile.map((q: any) => q.quantile)).toEqual([0.5, 0.9]);
    expect(metric.summary.quantile[0].value).toBeGreaterThanOrEqual(5);
    expect(metric.summary.quantile[0].value).toBeLessThanOrEqual(6);
  });

  it('writes a summary without quantiles as its count and sum only', async () => {
    const r = new MetricsRegistry();
    const s = r.summary({ name: 'step_seconds', help: 'Steps.', labelNames: ['type'], quantiles: [] });
    for (let i = 1; i <= 4; i++) s.observe({ type: 'admit' }, i);
    const [family] = await scrape(r);
    expect(family.type).toBe('SUMMARY');
    expect(family.metric).toHaveLength(1);
    expect(family.metric[0].label).toEqual([{ name: 'type', value: 'admit' }]);
    expect(family.metric[0].summary.sample_count).toBe(4);
    expect(family.metric[0].summary.sample_sum).toBe(10);
    expect(family.metric[0].summary.quantile ?? []).toEqual([]);
  });

  it('writes series with label values left out as empty strings, as client_golang', async () => {
    const r = new MetricsRegistry();
    r.counter({ name: 'c_total', help: 'c', labelNames: ['a', 'b'] }).inc({ b: 'x' });
    const [family] = await scrape(r);
    expect(family.metric[0].label).toEqual([
      { name: 'a', value: '' },
      { name: 'b', value: 'x' },
    ]);
  });

  it('writes nothing for an empty registry, and runs collectors first', async () => {
    expect(encodeMetricFamiliesDelimited(await gatherMetricFamilies(new MetricsRegistry()))).toEqual(new Uint8Array());
    const r = new MetricsRegistry();
    const g = r.gauge({ name: 'objects', help: 'o' });
    r.onCollect(() => g.set({}, 42));
    expect((await scrape(r))[0].metric[0].gauge.value).toBe(42);
  });

  it('frames each family with its varint length', async () => {
    const r = new MetricsRegistry();
    r.counter({ name: 'c_total', help: 'c' }).inc();
    const bytes = encodeMetricFamiliesDelimited(await gatherMetricFamilies(r));
    expect(bytes[0]).toBe(bytes.length - 1);
    // name (field 1, length-delimited) first
    expect(bytes[1]).toBe(0x0a);
  });
});
