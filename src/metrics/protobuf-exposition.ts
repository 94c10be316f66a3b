/**
 * The Prometheus protobuf exposition format: each io.prometheus.client.MetricFamily message
 * (prometheus/client_model's metrics.proto, proto2) written after its length as a varint, as
 * expfmt's delimited encoder writes them. Classic histogram buckets are always written; the native
 * fields (schema, zero bucket, spans and deltas) only for series with native state.
 */
import { ProtoWriter, WireType } from '../util/proto-wire.js';
import type { HistogramValue, LabelPair, MetricFamily, MetricFamilyType, MetricSeries, SummaryValue } from './metric-families.js';
import type { NativeBucketSpan } from './native-histogram.js';

/** The media type of this format, without the escaping parameter negotiation adds. */
export const PROTOBUF_DELIMITED_TYPE = 'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited';

/** io.prometheus.client.MetricType's numbers. */
const METRIC_TYPE: Record<MetricFamilyType, number> = { counter: 0, gauge: 1, summary: 2, untyped: 3, histogram: 4 };

/** Field numbers of metrics.proto. */
const F = {
  family: { name: 1, help: 2, type: 3, metric: 4 },
  metric: { label: 1, gauge: 2, counter: 3, summary: 4, untyped: 5, histogram: 7 },
  label: { name: 1, value: 2 },
  value: 1, // Gauge.value, Counter.value, Untyped.value
  summary: { sampleCount: 1, sampleSum: 2, quantile: 3 },
  quantile: { quantile: 1, value: 2 },
  histogram: {
    sampleCount: 1,
    sampleSum: 2,
    bucket: 3,
    schema: 5,
    zeroThreshold: 6,
    zeroCount: 7,
    negativeSpan: 9,
    negativeDelta: 10,
    positiveSpan: 12,
    positiveDelta: 13,
    createdTimestamp: 15,
  },
  bucket: { cumulativeCount: 1, upperBound: 2 },
  span: { offset: 1, length: 2 },
  timestamp: { seconds: 1, nanos: 2 },
} as const;

/** The families as varint-length-delimited MetricFamily messages, one after the other. */
export function encodeMetricFamiliesDelimited(families: readonly MetricFamily[]): Uint8Array {
  const out = new ProtoWriter();
  for (const family of families) out.bytes(encodeMetricFamily(family));
  return out.finish();
}

/** One MetricFamily message (without its length prefix). */
export function encodeMetricFamily(family: MetricFamily): Uint8Array {
  const w = new ProtoWriter();
  w.tag(F.family.name, WireType.LengthDelimited).string(family.name);
  w.tag(F.family.help, WireType.LengthDelimited).string(family.help);
  w.tag(F.family.type, WireType.Varint).uint(METRIC_TYPE[family.type]);
  for (const m of family.metrics) w.tag(F.family.metric, WireType.LengthDelimited).bytes(encodeMetric(m));
  return w.finish();
}

function encodeMetric(m: MetricSeries): Uint8Array {
  const w = new ProtoWriter();
  for (const l of m.labels) w.tag(F.metric.label, WireType.LengthDelimited).bytes(encodeLabel(l));
  if (m.gauge !== undefined) w.tag(F.metric.gauge, WireType.LengthDelimited).bytes(encodeValue(m.gauge));
  if (m.counter !== undefined) w.tag(F.metric.counter, WireType.LengthDelimited).bytes(encodeValue(m.counter));
  if (m.summary) w.tag(F.metric.summary, WireType.LengthDelimited).bytes(encodeSummary(m.summary));
  if (m.untyped !== undefined) w.tag(F.metric.untyped, WireType.LengthDelimited).bytes(encodeValue(m.untyped));
  if (m.histogram) w.tag(F.metric.histogram, WireType.LengthDelimited).bytes(encodeHistogram(m.histogram));
  return w.finish();
}

function encodeLabel(l: LabelPair): Uint8Array {
  return new ProtoWriter().tag(F.label.name, WireType.LengthDelimited).string(l.name).tag(F.label.value, WireType.LengthDelimited).string(l.value).finish();
}

function encodeValue(value: number): Uint8Array {
  return new ProtoWriter().tag(F.value, WireType.Fixed64).double(value).finish();
}

function encodeSummary(s: SummaryValue): Uint8Array {
  const w = new ProtoWriter();
  w.tag(F.summary.sampleCount, WireType.Varint).uint(s.count);
  w.tag(F.summary.sampleSum, WireType.Fixed64).double(s.sum);
  for (const q of s.quantiles) {
    const inner = new ProtoWriter().tag(F.quantile.quantile, WireType.Fixed64).double(q.quantile).tag(F.quantile.value, WireType.Fixed64).double(q.value);
    w.tag(F.summary.quantile, WireType.LengthDelimited).bytes(inner.finish());
  }
  return w.finish();
}

function encodeHistogram(h: HistogramValue): Uint8Array {
  const w = new ProtoWriter();
  const H = F.histogram;
  w.tag(H.sampleCount, WireType.Varint).uint(h.count);
  w.tag(H.sampleSum, WireType.Fixed64).double(h.sum);
  for (const b of h.buckets) {
    const inner = new ProtoWriter()
      .tag(F.bucket.cumulativeCount, WireType.Varint)
      .uint(b.cumulativeCount)
      .tag(F.bucket.upperBound, WireType.Fixed64)
      .double(b.upperBound);
    w.tag(H.bucket, WireType.LengthDelimited).bytes(inner.finish());
  }
  const n = h.native;
  if (!n) return w.finish();
  w.tag(H.schema, WireType.Varint).sint(n.schema);
  w.tag(H.zeroThreshold, WireType.Fixed64).double(n.zeroThreshold);
  w.tag(H.zeroCount, WireType.Varint).uint(n.zeroCount);
  // proto2 repeated scalars without [packed=true]: one tag per value, as Go's encoder writes them.
  for (const s of n.negativeSpans) w.tag(H.negativeSpan, WireType.LengthDelimited).bytes(encodeSpan(s));
  for (const d of n.negativeDeltas) w.tag(H.negativeDelta, WireType.Varint).sint(d);
  for (const s of n.positiveSpans) w.tag(H.positiveSpan, WireType.LengthDelimited).bytes(encodeSpan(s));
  for (const d of n.positiveDeltas) w.tag(H.positiveDelta, WireType.Varint).sint(d);
  w.tag(H.createdTimestamp, WireType.LengthDelimited).bytes(encodeTimestamp(n.createdMs));
  return w.finish();
}

function encodeSpan(s: NativeBucketSpan): Uint8Array {
  return new ProtoWriter().tag(F.span.offset, WireType.Varint).sint(s.offset).tag(F.span.length, WireType.Varint).uint(s.length).finish();
}

/** google.protobuf.Timestamp; zero fields left out, as proto3 writes them. */
function encodeTimestamp(ms: number): Uint8Array {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  const w = new ProtoWriter();
  if (seconds !== 0) w.tag(F.timestamp.seconds, WireType.Varint).varint64(BigInt(seconds));
  if (nanos !== 0) w.tag(F.timestamp.nanos, WireType.Varint).uint(nanos);
  return w.finish();
}
