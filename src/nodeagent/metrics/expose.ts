/**
 * Writes a registry's metrics as the answer of a metrics path. The Prometheus text format (0.0.4)
 * for now; the one place to put content negotiation (OpenMetrics, protobuf) when the agent gets it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsRegistry } from '../../metrics/registry.js';

/** The content type of the Prometheus text format, as client_golang's promhttp writes it. */
export const PROMETHEUS_TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Answers `req` with every metric of `registry`; HEAD gets the headers alone. */
export async function writeMetrics(req: IncomingMessage, res: ServerResponse, registry: MetricsRegistry): Promise<void> {
  let body: string;
  try {
    body = await registry.text();
  } catch (e) {
    // promhttp's HTTPErrorOnError: the gathering failed, nothing partial is sent.
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(`An error has occurred while serving metrics:\n\n${e instanceof Error ? e.message : String(e)}\n`);
    return;
  }
  res.writeHead(200, { 'Content-Type': PROMETHEUS_TEXT_CONTENT_TYPE });
  res.end(req.method === 'HEAD' ? undefined : body);
}
