/**
 * Writes a registry's metrics as the answer of a metrics path, in the format the client asks for
 * (Prometheus text, OpenMetrics, or protobuf with native histograms), gzipped when it accepts it:
 * what kubelet's promhttp handlers answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { metricsAnswer } from '../../metrics/answer.js';
import type { MetricsRegistry } from '../../metrics/registry.js';

/** The first value of a request header, as Go's `Header.Get` reads it. */
const firstHeader = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Answers `req` with every metric of `registry`; HEAD gets the headers alone. */
export async function writeMetrics(req: IncomingMessage, res: ServerResponse, registry: MetricsRegistry): Promise<void> {
  const accept = firstHeader(req.headers.accept);
  const acceptEncoding = firstHeader(req.headers['accept-encoding']);
  const answer = await metricsAnswer(registry, { ...(accept !== undefined ? { accept } : {}), ...(acceptEncoding !== undefined ? { acceptEncoding } : {}) });
  res.writeHead(answer.status, answer.headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}
