/**
 * The HTTP door's side of the API server's metrics: `GET /metrics` (Prometheus text) and
 * `GET /metrics/slis`, and the request metrics of what this door answers (count, latency and
 * response size of each request an instrumented route of kube-apiserver would answer, in-flight
 * requests, the watch events it writes). The labels come from src/api/metrics, shared with the
 * engine's own door; a watch is timed there, where its end is seen.
 */
import { performance } from 'node:perf_hooks';
import type { ApiServerMetrics, RequestKind } from '../api/metrics/server-metrics.js';
import { removedReleaseOf } from '../api/metrics/server-metrics.js';
import { servedKind } from '../api/metrics/metered-handle.js';
import { APISERVER_COMPONENT, nonResourceRequestLabels, resourceRequestLabels, type RequestLabels } from '../api/metrics/request-labels.js';
import type { HealthChecks } from '../metrics/health.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { metricsAnswer } from '../metrics/answer.js';
import type { PatchType, Verb } from '../machinery/request.js';
import type { KindRegistry, ResolvedKind } from '../schema/registry.js';
import { textAnswer, isEncodedAnswer, type EncodedAnswer } from './encode.js';
import { aggregatedVersionAsked } from './discovery.js';
import { isWatch } from './query.js';
import { parseResourcePath, type ResourceRoute } from './routes.js';

/** The content type of the Prometheus text format, version 0.0.4, as client_golang answers it. */
export const PROMETHEUS_TEXT_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

/** What a request looks like to the meter: method, URL (prefix already taken off at the end) and headers. */
export interface MeteredHttpRequest {
  readonly method: string;
  readonly url: URL;
  header(name: string): string | null;
}

/**
 * The answer of `GET /metrics`: every metric of `registry` in the format the client asks for
 * (Prometheus text, OpenMetrics, or protobuf with native histograms), gzipped when it accepts it,
 * as client_golang's promhttp handler answers.
 */
export async function metricsEndpoint(registry: MetricsRegistry, request: MeteredHttpRequest): Promise<EncodedAnswer | Response> {
  const accept = request.header('accept');
  const acceptEncoding = request.header('accept-encoding');
  const answer = await metricsAnswer(registry, { ...(accept !== null ? { accept } : {}), ...(acceptEncoding !== null ? { acceptEncoding } : {}) });
  const { 'content-type': contentType = PROMETHEUS_TEXT_CONTENT_TYPE, ...others } = answer.headers;
  // Text stays an encoded answer (no Fetch objects on the node:http path); bytes (protobuf, gzip) go as a Response.
  if (typeof answer.body === 'string') return textAnswer(answer.status, answer.body, contentType, new Headers(others));
  return new Response(answer.body, { status: answer.status, headers: { ...answer.headers, 'cache-control': 'no-cache, private' } });
}

/**
 * The answer of `/metrics` or `/metrics/slis`, or undefined when `path` is neither or is not
 * served: `/metrics` needs the cluster's metrics on, `/metrics/slis` the SLI registry (ComponentSLIs).
 */
export function metricsPathResponse(
  path: string,
  request: MeteredHttpRequest,
  metrics: ApiServerMetrics | undefined,
  health: HealthChecks | undefined,
): Promise<EncodedAnswer | Response> | undefined {
  if (path === '/metrics') return metrics?.enabled ? metricsEndpoint(metrics.registry, request) : undefined;
  if (path === '/metrics/slis') return health?.slis ? metricsEndpoint(health.slis, request) : undefined;
  return undefined;
}

/** The metric paths `GET /` lists. */
export function metricsPaths(metrics: ApiServerMetrics | undefined, health: HealthChecks | undefined): string[] {
  return [...(metrics?.enabled ? ['/metrics'] : []), ...(health?.slis ? ['/metrics/slis'] : [])];
}

/** What {@link HttpRequestMeter.start} hands to {@link HttpRequestMeter.finish}. */
export interface MeteredStart {
  readonly started: number;
  readonly inflight: RequestKind | undefined;
  /** The URL's query (a door's prefix never changes it). */
  readonly search: string;
}

/** The request metrics of one HTTP door. */
export interface HttpRequestMeter {
  /**
   * At the start of a request: its clock starts, it counts as in flight unless long-running.
   * `pathname` and `search` are its URL's, as the door read them.
   */
  start(request: MeteredHttpRequest, pathname: string, search: string): MeteredStart;
  /**
   * At its end: records it when an instrumented route answered it (`routed`: past authentication
   * and authorization, whose refusals upstream does not count; a served resource or health path).
   */
  finish(start: MeteredStart, request: MeteredHttpRequest, answer: { readonly status: number }, routed: boolean, route?: ResourceRoute): void;
}

/** The meter of a door, or undefined when the cluster counts nothing. */
export function httpRequestMeter(metrics: ApiServerMetrics | undefined, registry: KindRegistry): HttpRequestMeter | undefined {
  if (!metrics?.enabled) return undefined;
  // A kind whose feature gate is off is not in the door's registry at all.
  const kinds = { registry, featureEnabled: () => true };
  return {
    start(request, pathname, search) {
      const inflight = longRunningPath(pathname, search, request.url)
        ? undefined
        : request.method === 'GET' || request.method === 'HEAD'
          ? 'readOnly'
          : 'mutating';
      if (inflight) metrics.startInflight(inflight);
      return { started: performance.now(), inflight, search };
    },
    finish(start, request, answer, routed, route) {
      if (start.inflight) metrics.endInflight(start.inflight);
      // 405: no route takes the method (go-restful answers it before any instrumented handler).
      if (!routed || answer.status === 405) return;
      const found = routeLabels(kinds, request, start.search, route);
      if (!found) return;
      const seconds = (performance.now() - start.started) / 1000;
      const bytes = isEncodedAnswer(answer as EncodedAnswer) ? Buffer.byteLength((answer as EncodedAnswer).body) : undefined;
      metrics.recordRequest(found.labels, answer.status, seconds, bytes);
      const warning = found.kind?.definition.deprecationWarning;
      if (warning) metrics.recordDeprecated(found.labels, removedReleaseOf(warning));
    },
  };
}

/**
 * What records the watch events this door writes (`apiserver_watch_events_total` and
 * `apiserver_watch_events_sizes`, by the bytes of each event's line), or undefined without metrics.
 */
export function watchEventRecorder(metrics: ApiServerMetrics | undefined, kind: ResolvedKind, version: string): ((bytes: number) => void) | undefined {
  if (!metrics?.enabled) return undefined;
  const labels = { group: kind.group, version, resource: kind.definition.plural };
  return (bytes) => {
    metrics.watchEvents.inc(labels);
    metrics.watchEventSizes.observe(labels, bytes);
  };
}

/** Subresources whose requests are long-running, and so not in flight (`BasicLongRunningRequestCheck`). */
const LONG_RUNNING_SEGMENTS: readonly string[] = ['attach', 'exec', 'proxy', 'log', 'portforward'];

/** A watch or a streaming subresource, told from the path and query alone (before any routing, as upstream's filter does). */
export function longRunningPath(pathname: string, search: string, url: URL): boolean {
  if (search.includes('watch') && watchAsked(url.searchParams)) return true;
  if (pathname.includes('/watch/') || pathname.includes('/proxy/')) return true;
  // One of the last two segments: `.../pods/<name>/log`, or `.../nodes/<name>/proxy`.
  const last = pathname.lastIndexOf('/');
  if (isLongRunningSegment(pathname, last + 1, pathname.length)) return true;
  return last > 0 && isLongRunningSegment(pathname, pathname.lastIndexOf('/', last - 1) + 1, last);
}

/** Whether `path` from `start` to `end` is a long-running segment, compared in place: every request asks, and a slice would be a new string each time. */
function isLongRunningSegment(path: string, start: number, end: number): boolean {
  const length = end - start;
  for (const segment of LONG_RUNNING_SEGMENTS) if (segment.length === length && path.startsWith(segment, start)) return true;
  return false;
}

function watchAsked(params: URLSearchParams): boolean {
  try {
    return isWatch(params);
  } catch {
    return false;
  }
}

/** The health paths upstream instruments (their own checks, `/healthz/etcd`, are not). */
const HEALTH_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz']);

/** The labels of a request an instrumented route answers, or undefined for one no such route serves. */
function routeLabels(
  kinds: { registry: KindRegistry; featureEnabled(gate: string): boolean },
  request: MeteredHttpRequest,
  search: string,
  parsed?: ResourceRoute,
): { labels: RequestLabels; kind?: ResolvedKind } | undefined {
  // The door's own parse of a resource path, when it made one; the path's otherwise.
  let route = parsed;
  if (!route) {
    // Read at the end of the request: the door has taken its prefix off the URL by then.
    const raw = request.url.pathname;
    const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
    if (HEALTH_PATHS.has(path)) return { labels: nonResourceRequestLabels(path, '') };
    if (path === '/api' || path === '/apis') {
      // Only the aggregated discovery handler is instrumented upstream.
      return aggregatedVersionAsked(request.header('accept')) ? { labels: nonResourceRequestLabels(path, APISERVER_COMPONENT) } : undefined;
    }
    route = parseResourcePath(path);
    if (!route) return undefined;
  }
  const kind = servedKind(kinds, route.group, route.version, route.resource, route.subresource);
  if (!kind) return undefined;
  if (!kind.namespaced && route.namespace !== undefined) return undefined;
  if (kind.namespaced && route.namespace === undefined && route.name !== undefined) return undefined;
  if (route.subpath && !kind.definition.connectSubresources?.[route.subresource ?? '']?.takesPath) return undefined;
  const verb = verbOfMethod(request, search, route.name !== undefined, route.subresource, route.legacyWatch);
  // A watch is recorded by the engine when it ends; an unknown method had no route.
  if (verb === undefined || verb === 'watch') return undefined;
  const labels = resourceRequestLabels(kind, {
    verb,
    version: route.version,
    namespace: route.namespace,
    name: route.name,
    subresource: route.subresource,
    patchType: verb === 'patch' && request.header('content-type')?.startsWith('application/apply-patch+yaml') ? ('apply' as PatchType) : undefined,
    dryRun: search.includes('dryRun') ? request.url.searchParams.getAll('dryRun') : undefined,
  });
  return { labels, kind };
}

/** The verb a method asks of a route (the labels only need its class: a connect's is CONNECT anyway). */
function verbOfMethod(request: MeteredHttpRequest, search: string, named: boolean, subresource: string | undefined, legacyWatch: boolean): Verb | undefined {
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      if (legacyWatch || (search.includes('watch') && watchAsked(request.url.searchParams))) return 'watch';
      return named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    case 'OPTIONS':
      return subresource !== undefined ? 'get' : undefined;
    default:
      return undefined;
  }
}
