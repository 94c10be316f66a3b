/**
 * The answer to `GET /metrics` (and `/metrics/slis`): the registry's metrics in the format the
 * client asked for (Prometheus protobuf, OpenMetrics or the Prometheus text format), gzipped when
 * the client accepts it, as promhttp's handler answers for Kubernetes' components.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { gatherMetricFamilies, settleNativeHistograms } from './metric-families.js';
import { negotiateEncoding, negotiateFormat } from './negotiate.js';
import { encodeMetricFamiliesDelimited } from './protobuf-exposition.js';
import type { MetricsRegistry } from './registry.js';

// Made on first use: reading node:zlib's gzip at the module's top would load node:zlib at every start.
let gzipAsync: ((body: string | Uint8Array) => Promise<Buffer>) | undefined;

/**
 * What the client sent that decides the answer's format.
 * @category Metrics, health and tracing
 */
export interface MetricsRequestHeaders {
  /** The Accept header, if any. */
  readonly accept?: string;
  /** The Accept-Encoding header, if any. */
  readonly acceptEncoding?: string;
}

/**
 * An HTTP answer a door writes out as it is.
 * @category Metrics, health and tracing
 */
export interface MetricsAnswer {
  readonly status: number;
  /** `content-type`, and `content-encoding` when the body is gzipped. */
  readonly headers: Record<string, string>;
  /** Bytes for protobuf or gzip, a string for uncompressed text. */
  readonly body: Uint8Array | string;
}

/**
 * The metrics answer for a registry. Never throws: an unreadable Accept header gets the text
 * format, a collector that fails a 500 naming the error. With native histograms on, only the protobuf format carries them; the text
 * formats show the classic `_bucket`, `_sum` and `_count` series alone.
 * @category Metrics, health and tracing
 */
export async function metricsAnswer(registry: MetricsRegistry, request: MetricsRequestHeaders = {}): Promise<MetricsAnswer> {
  const { format, contentType } = negotiateFormat(request.accept);
  let body: Uint8Array | string;
  try {
    if (format === 'protobuf') body = encodeMetricFamiliesDelimited(await gatherMetricFamilies(registry));
    else {
      settleNativeHistograms(registry);
      body = format === 'text' ? await registry.text() : await registry.openMetricsText();
    }
  } catch (err) {
    // promhttp's HTTPErrorOnError, which component-base uses: 500 with the error, never compressed.
    return {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
      body: `An error has occurred while serving metrics:\n\n${err instanceof Error ? err.message : String(err)}\n`,
    };
  }
  const headers: Record<string, string> = { 'content-type': contentType };
  if (negotiateEncoding(request.acceptEncoding) === 'gzip') {
    headers['content-encoding'] = 'gzip';
    body = new Uint8Array(await (gzipAsync ??= promisify(gzip))(body));
  }
  return { status: 200, headers, body };
}
