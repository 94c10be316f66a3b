/**
 * The line kube-apiserver writes for every request at verbosity 3 (k8s.io/apiserver
 * pkg/server/httplog/httplog.go `respLogger.Log`): `"HTTP" verb="LIST" URI="/api/v1/pods"
 * latency="1.2ms" userAgent="kubectl/..." contentType="..." audit-ID="..." srcIP="127.0.0.1:5555"
 * resp=200`, its verb normalized as the request metrics do (pkg/endpoints/metrics `NormalizedVerb`).
 */
import { goDurationString } from './go-duration.js';
import type { Logger } from './logger.js';

/** The verbosity of the request line (`withLoggingLevel`). */
export const HTTP_LOG_LEVEL = 3;

/** What the line says about one request. */
export interface HttpRequestLog {
  /** The normalized verb ({@link normalizedVerb}). */
  readonly verb: string;
  /** The request URI as sent: path and query. */
  readonly uri: string;
  /** From the request's arrival to the end of the response, in milliseconds (fractional). */
  readonly latencyMs: number;
  readonly userAgent: string;
  /** The response's Content-Type. */
  readonly contentType: string;
  /** The request's audit ID (its `Audit-ID` header), at most 64 characters are written. */
  readonly auditId: string;
  /** The client's `host:port`. */
  readonly srcIP: string;
  /** The response status; absent for a hijacked (upgraded) connection. */
  readonly status?: number;
}

/** What {@link normalizedVerb} needs to know about a request. */
export interface VerbInput {
  /** The HTTP method. */
  readonly method: string;
  /** Whether the request names one object (a GET of a collection is a LIST). */
  readonly named?: boolean;
  /** A resource request (not /healthz, discovery, ...): only those become LIST. */
  readonly resource?: boolean;
  /** `?watch=true` or `1`, or the legacy `/watch/` path. */
  readonly watch?: boolean;
  readonly contentType?: string;
  /** The subresource: `exec`, `attach`, `portforward` and `proxy` are CONNECT. */
  readonly subresource?: string;
}

const CONNECT_SUBRESOURCES = new Set(['proxy', 'attach', 'exec', 'portforward']);

/** The verb of the line: the method upper-cased, GET of a collection LIST, WATCH, APPLY, CONNECT. */
export function normalizedVerb(input: VerbInput): string {
  let verb = input.method.toUpperCase();
  if ((verb === 'GET' || verb === 'HEAD') && input.resource && !input.named) verb = 'LIST';
  if (input.watch) verb = 'WATCH';
  if (verb === 'PATCH' && input.contentType === 'application/apply-patch+yaml') verb = 'APPLY';
  if (input.resource && input.subresource && CONNECT_SUBRESOURCES.has(input.subresource)) verb = 'CONNECT';
  return verb;
}

/** Writes the request line at verbosity 3 (nothing below it). */
export function logHttpRequest(logger: Logger, r: HttpRequestLog): void {
  const v = logger.V(HTTP_LOG_LEVEL);
  if (!v.enabled) return;
  const kv: unknown[] = [
    'verb',
    r.verb,
    'URI',
    r.uri,
    'latency',
    goDurationString(r.latencyMs * 1e6),
    'userAgent',
    r.userAgent,
    'contentType',
    r.contentType,
    'audit-ID',
    r.auditId.slice(0, 64),
    'srcIP',
    r.srcIP,
  ];
  if (r.status === undefined) kv.push('hijacked', true);
  else kv.push('resp', r.status);
  v.infoS('HTTP', ...kv);
}

/**
 * {@link normalizedVerb} of a request as it arrives (method, path and query, Content-Type), its
 * path read as k8s.io/apiserver's `RequestInfoFactory` reads it: `/api/v1` or `/apis/<group>/<version>`,
 * then an optional `watch/`, `namespaces/<ns>/`, the resource, the name and the subresource.
 */
export function requestVerb(method: string, uri: string, contentType = ''): string {
  const q = uri.indexOf('?');
  const path = q < 0 ? uri : uri.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : uri.slice(q + 1));
  const parts = path.split('/').filter(Boolean);
  const prefix = parts[0] === 'api' ? 2 : parts[0] === 'apis' ? 3 : 0;
  if (prefix === 0 || parts.length <= prefix) return normalizedVerb({ method, contentType });
  let rest = parts.slice(prefix);
  let watch = ['true', '1'].includes(query.get('watch') ?? '');
  if (rest[0] === 'watch') {
    watch = true;
    rest = rest.slice(1);
  }
  // `namespaces/<ns>/<resource>...` is namespaced; `namespaces/<ns>` alone names a namespace.
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return normalizedVerb({ method, contentType, resource: true, named: rest.length >= 2, watch, subresource: rest[2] });
}
