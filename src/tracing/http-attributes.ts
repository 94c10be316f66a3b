/**
 * What kube-apiserver's tracing filter writes on a request's span (k8s.io/apiserver
 * pkg/endpoints/filters/traces.go over go.opentelemetry.io/contrib otelhttp's server semantic
 * conventions): the span's name, the request's attributes at the start, the response's at the
 * end, and its status. Plain functions of the request's facts; no OpenTelemetry code.
 */

/**
 * The API resource a resource request addresses (k8s.io/apiserver's RequestInfo).
 * @category Metrics, health and tracing
 */
export interface TracedResource {
  /** Empty for the core group (served under `/api`). */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** Empty for cluster-scoped resources and lists across namespaces. */
  readonly namespace?: string;
  readonly resource: string;
  /** Empty for lists and collection requests. */
  readonly name?: string;
  readonly subresource?: string;
}

/**
 * The request facts the span is made of.
 * @category Metrics, health and tracing
 */
export interface TracedRequest {
  /** The HTTP method as received. */
  readonly method: string;
  /** The request target as received: path and query (`/api/v1/pods?limit=1`). */
  readonly target: string;
  /** A request header by lower-case name (`host`, `user-agent`, `x-forwarded-for`, `traceparent`, ...). */
  readonly header: (name: string) => string | undefined;
  /** Whether the request came over TLS. */
  readonly tls: boolean;
  /** The peer's address and port. */
  readonly remoteAddress?: string;
  readonly remotePort?: number;
  /** `1.1`, `2`, ...; `1.1` by default. */
  readonly httpVersion?: string;
  /** The resource of a resource request; absent for other requests (`/healthz`, `/apis`, ...). */
  readonly resource?: TracedResource;
  /**
   * The authenticated user's groups. A caller's trace context is followed only for
   * `system:masters` and `system:monitoring`; anyone else's request starts a new trace linked to it.
   */
  readonly groups?: readonly string[];
  /** The request's audit ID (the `Audit-ID` response header); cut to 64 characters. */
  readonly auditId?: string;
  /** When the request was received (ms since the epoch); now by default. */
  readonly startTime?: number;
}

/** An attribute value as OpenTelemetry carries it. */
export type TraceAttributeValue = string | number | boolean;

/** The groups whose callers' trace context is followed (`notSystemPrivilegedGroup`). */
export const TRACE_PRIVILEGED_GROUPS: readonly string[] = ['system:masters', 'system:monitoring'];

const STANDARD_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * The span's name: `GET /api/v1/namespaces/{:namespace}/pods/{:name}` for a resource request
 * (`getSpanNameFromRequestInfo`), the method alone for anything else.
 */
export function requestSpanName(request: Pick<TracedRequest, 'method' | 'resource'>): string {
  const r = request.resource;
  if (!r) return request.method;
  let name = r.apiGroup ? `/apis/${r.apiGroup}` : '/api';
  name += `/${r.apiVersion}`;
  if (r.namespace) name += '/namespaces/{:namespace}';
  name += `/${r.resource}`;
  if (r.name) name += '/{:name}';
  if (r.subresource) name += `/${r.subresource}`;
  return `${request.method} ${name}`;
}

/** Go's `net.SplitHostPort`-like split of a Host header; port -1 when absent or not a number. */
function splitHostPort(hostport: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]*)\](?::(\d*))?$/.exec(hostport);
  const m = bracketed ?? /^([^:]*)(?::(\d*))?$/.exec(hostport);
  if (!m) return { host: hostport, port: -1 };
  const port = m[2] ? Number(m[2]) : -1;
  return { host: m[1]!, port: Number.isInteger(port) && port > 0 && port < 65536 ? port : -1 };
}

/** The path of a request target, without its query. */
function targetPath(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** The attributes a span starts with, in otelhttp's order, then the filter's own (`http.target`, `audit-id`). */
export function requestAttributes(request: TracedRequest): Record<string, TraceAttributeValue> {
  const attrs: Record<string, TraceAttributeValue> = {};
  const { host, port } = splitHostPort(request.header('host') ?? '');
  attrs['server.address'] = host;
  const upper = request.method.toUpperCase();
  if (request.method === '') attrs['http.request.method'] = '_OTHER';
  else attrs['http.request.method'] = STANDARD_METHODS.has(upper) ? upper : '_OTHER';
  attrs['url.scheme'] = request.tls ? 'https' : 'http';
  // The port only when it is not the scheme's own.
  if (port > 0 && port !== (request.tls ? 443 : 80)) attrs['server.port'] = port;
  // The method as received whenever it is not a standard one exactly (`get`, `PURGE`).
  if (request.method !== '' && !STANDARD_METHODS.has(request.method)) attrs['http.request.method_original'] = request.method;
  if (request.remoteAddress) {
    attrs['network.peer.address'] = request.remoteAddress;
    if (request.remotePort && request.remotePort > 0) attrs['network.peer.port'] = request.remotePort;
  }
  const userAgent = request.header('user-agent');
  if (userAgent) attrs['user_agent.original'] = userAgent;
  const forwarded = (request.header('x-forwarded-for') ?? '').split(',')[0]!.trim();
  const client = forwarded || request.remoteAddress;
  if (client) attrs['client.address'] = client;
  const path = targetPath(request.target);
  if (path) attrs['url.path'] = path;
  attrs['network.protocol.version'] = request.httpVersion ?? '1.1';
  attrs['http.target'] = request.target;
  attrs['audit-id'] = (request.auditId ?? '').slice(0, 64);
  return attrs;
}

/** The attributes a span ends with (`ResponseTraceAttrs`): body sizes when known and positive, and the status code. */
export function responseAttributes(
  statusCode: number,
  sizes: { readonly requestBytes?: number; readonly responseBytes?: number } = {},
): Record<string, number> {
  const attrs: Record<string, number> = {};
  if (sizes.requestBytes !== undefined && sizes.requestBytes > 0) attrs['http.request.body.size'] = sizes.requestBytes;
  if (sizes.responseBytes !== undefined && sizes.responseBytes > 0) attrs['http.response.body.size'] = sizes.responseBytes;
  if (statusCode > 0) attrs['http.response.status_code'] = statusCode;
  return attrs;
}

/** The span's status for a server's answer: an error for 5xx and for a code outside 100..599, else unset. */
export function responseStatus(statusCode: number): { readonly error: boolean; readonly message?: string } {
  if (statusCode < 100 || statusCode >= 600) return { error: true, message: `Invalid HTTP status code ${statusCode}` };
  return { error: statusCode >= 500 };
}

/** Whether a caller's trace context is followed (the user is in a privileged group). */
export function followsCallerTrace(groups: readonly string[] | undefined): boolean {
  return (groups ?? []).some((g) => TRACE_PRIVILEGED_GROUPS.includes(g));
}
