/**
 * A hand-encoded Prometheus protobuf exposition (io.prometheus.client.MetricFamily, length-delimited)
 * holding one native histogram, so the harness can prove Prometheus' protobuf scrape and native
 * histogram queries without memkube's own encoder. Field numbers are those of client_model's
 * metrics.proto.
 */

/** The content type of the delimited protobuf exposition. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited';

/** A minimal protobuf writer: just what a MetricFamily needs. */
class Bytes {
  private readonly out: number[] = [];

  varint(value: number): this {
    let v = value;
    while (v > 0x7f) {
      this.out.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.out.push(v);
    return this;
  }

  tag(field: number, wireType: 0 | 1 | 2): this {
    return this.varint(field * 8 + wireType);
  }

  /** A varint field. */
  uint(field: number, value: number): this {
    return this.tag(field, 0).varint(value);
  }

  /** A zigzag (sint32/sint64) field. */
  sint(field: number, value: number): this {
    return this.uint(field, value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** A double field (fixed 64 bits, little-endian). */
  double(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.tag(field, 1).out.push(...b);
    return this;
  }

  /** A length-delimited field. */
  message(field: number, body: Bytes | string): this {
    const data = typeof body === 'string' ? [...Buffer.from(body, 'utf8')] : body.out;
    this.tag(field, 2)
      .varint(data.length)
      .out.push(...data);
    return this;
  }

  /** The bytes, prefixed by their length (the delimited stream's framing). */
  delimited(): Buffer {
    return Buffer.from([...new Bytes().varint(this.out.length).out, ...this.out]);
  }
}

/** What the fixture's histogram holds: observations 1, 2 and 4 at schema 0 (one bucket each). */
export const FIXTURE_HISTOGRAM = { name: 'harness_native_latency_seconds', count: 3, sum: 7 } as const;

/** The exposition: one MetricFamily of type HISTOGRAM with a native histogram, label `path="/a"`. */
export function nativeHistogramExposition(): Buffer {
  const HISTOGRAM = 4;
  const histogram = new Bytes()
    .uint(1, FIXTURE_HISTOGRAM.count) // sample_count
    .double(2, FIXTURE_HISTOGRAM.sum) // sample_sum
    .sint(5, 0) // schema: buckets (2^(i-1), 2^i]
    .double(6, 2.938735877055719e-39) // zero_threshold, client_golang's default
    .uint(7, 0) // zero_count
    .message(12, new Bytes().sint(1, 0).uint(2, 3)) // positive_span: buckets 0, 1, 2
    // positive_delta: counts 1, 1, 1 as deltas (packed sint64)
    .message(13, new Bytes().varint(2).varint(0).varint(0));
  const metric = new Bytes().message(1, new Bytes().message(1, 'path').message(2, '/a')).message(7, histogram);
  return new Bytes().message(1, FIXTURE_HISTOGRAM.name).message(2, 'Latency of the harness fixture.').uint(3, HISTOGRAM).message(4, metric).delimited();
}
