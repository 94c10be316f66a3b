/**
 * Tracing of API requests, as kube-apiserver traces them with `--tracing-config-file`: one server
 * span per request, exported over OTLP gRPC. This module is light: the OpenTelemetry SDK and the
 * exporter (provider.ts) are imported only when {@link startRequestTracing} is called, so a server
 * without tracing never loads them. The API knows nothing of HTTP servers: the caller hands in the
 * request's facts ({@link TracedRequest}) and ends the span with the status code.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestTracer, RequestTracingOptions } from './types.js';

export type { TracedRequest, TracedResource } from './http-attributes.js';
export type { RequestSpan, RequestTracer, RequestTracingOptions } from './types.js';
export { requestAttributes, requestSpanName, responseAttributes, responseStatus, TRACE_PRIVILEGED_GROUPS } from './http-attributes.js';
export { parseTraceparent, type RemoteParent } from './traceparent.js';
export { goTraceIdRatioSampled } from './go-ratio-sampler.js';

/**
 * An endpoint the exporter cannot reach; the message says why.
 * @category Metrics, health and tracing
 */
export class TracingSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TracingSetupError';
  }
}

/**
 * kube-apiserver's identity (`apiserver-` and the base32 of a SHA-256 over the host name and
 * `kube-apiserver`, each length-prefixed), its `service.instance.id` (pkg/server/config.go).
 */
export function apiserverIdentity(host: string = hostname()): string {
  const part = (s: string) => {
    const bytes = Buffer.from(s);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const hash = createHash('sha256')
    .update(Buffer.concat([part(host), part('kube-apiserver')]))
    .digest()
    .subarray(0, 16);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of hash) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `apiserver-${out.toLowerCase()}`;
}

/**
 * The URL the JS exporter takes for a gRPC target as Go's gRPC client reads it: `host:port` and
 * `dns:[//authority]/host:port` name a TCP address (spoken to without TLS, as kube-apiserver's
 * exporter always is). Unix sockets are refused: the exporter would speak TLS over them.
 */
export function otlpExporterUrl(endpoint: string): string {
  if (!endpoint.includes('//') && !/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(endpoint)) return `http://${endpoint}`;
  const dns = /^dns:(?:\/\/[^/]*\/)?(.+)$/i.exec(endpoint);
  if (dns) return `http://${dns[1]}`;
  throw new TracingSetupError(`memkube exports traces over TCP only: endpoint ${JSON.stringify(endpoint)} is not supported`);
}

/**
 * Starts tracing (loading OpenTelemetry). Throws a {@link TracingSetupError} for an endpoint memkube cannot export to.
 * @category Metrics, health and tracing
 */
export async function startRequestTracing(options: RequestTracingOptions): Promise<RequestTracer> {
  const url = options.endpoint === undefined ? undefined : otlpExporterUrl(options.endpoint);
  const { createOtelRequestTracer } = await import('./provider.js');
  return createOtelRequestTracer(options, url);
}
