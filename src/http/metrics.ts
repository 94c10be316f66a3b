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
import {
  APISERVER_COMPONENT,
  isLongRunningSubresource,
  nonResourceRequestLabels,
  resourceRequestLabels,
  type RequestLabels,
} from '../api/metrics/request-labels.js';
import type { HealthChecks } from '../metrics/health.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { metricsAnswer } from '../metrics/answer.js';
import type { PatchType, Verb } from '../machinery/request.js';
import type { KindRegistry, ResolvedKind } from '../schema/registry.js';
import { textAnswer, isEncodedAnswer, type EncodedAnswer } from './encode.js';
import { aggregatedVersionAsked } from './discovery.js';
import { isWatch } from './query.js';
import { parseResourcePath, type ResourceRoute } from './routes.js';
import { FinishedRequests } from './finished-requests.js';

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
   * `route` is the door's parse of its path (undefined for a path naming no resource), `search`
   * its URL's query, as the door read it.
   */
  start(request: MeteredHttpRequest, route: ResourceRoute | undefined, search: string): MeteredStart;
  /**
   * At its end: records it when an instrumented route answered it (`routed`: past authentication
   * and authorization, whose refusals upstream does not count; a served resource or health path).
   */
  finish(start: MeteredStart, request: MeteredHttpRequest, answer: { readonly status: number }, routed: boolean, route?: ResourceRoute): void;
}

/** The meter of a door, or undefined when the cluster counts nothing. */
export function httpRequestMeter(metrics: ApiServerMetrics | undefined, registry: KindRegistry): HttpRequestMeter | undefined {
  if (!metrics?.enabled) return undefined;
  // Every door of a cluster shares one meter: one batch of finished requests, drained at each read.
  const known = meters.get(metrics);
  if (known?.registry === registry) return known.meter;
  // A kind whose feature gate is off is not in the door's registry at all.
  const kinds = { registry, featureEnabled: () => true };
  const record = (labels: RequestLabels, kind: ResolvedKind | undefined, status: number, seconds: number, bytes: number | undefined) => {
    metrics.recordRequest(labels, status, seconds, bytes);
    const warning = kind?.definition.deprecationWarning;
    if (warning) metrics.recordDeprecated(labels, removedReleaseOf(warning));
  };
  const finished = new FinishedRequests((r) => {
    const found = resourceRouteLabels(kinds, r.route, r.method, r.search, r.contentType);
    if (found) record(found.labels, found.kind, r.status, r.seconds, r.bytes);
  });
  metrics.beforeFlush(() => finished.drain());
  const meter: HttpRequestMeter = {
    start(request, route, search) {
      const inflight = longRunningRoute(route, search, request.url)
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
      const seconds = (performance.now() - start.started) / 1000;
      const bytes = isEncodedAnswer(answer as EncodedAnswer) ? Buffer.byteLength((answer as EncodedAnswer).body) : undefined;
      if (route) {
        // A resource request: recorded with the next batch (or read).
        const contentType = request.method === 'PATCH' ? (request.header('content-type') ?? undefined) : undefined;
        finished.add(route, request.method, start.search, contentType, answer.status, seconds, bytes);
        return;
      }
      const found = pathLabels(kinds, request, start.search);
      if (found) record(found.labels, found.kind, answer.status, seconds, bytes);
    },
  };
  meters.set(metrics, { registry, meter });
  return meter;
}

/** The meter of each cluster's metrics, with the kinds it was made for. */
const meters = new WeakMap<ApiServerMetrics, { registry: KindRegistry; meter: HttpRequestMeter }>();

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

/**
 * A watch or a streaming subresource (`BasicLongRunningRequestCheck`: the verb watch, or a
 * long-running subresource of a resource request), told from the door's parse of the path and the
 * query. Requests for no resource never are.
 */
export function longRunningRoute(route: ResourceRoute | undefined, search: string, url: URL): boolean {
  if (!route) return false;
  if (route.legacyWatch || (route.subresource !== undefined && isLongRunningSubresource(route.subresource))) return true;
  return search.includes('watch') && watchAsked(url.searchParams);
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

type MeteredKinds = { registry: KindRegistry; featureEnabled(gate: string): boolean };

/**
 * The labels of a request the door parsed no resource route of, when an instrumented route
 * answered it: a health path, aggregated discovery, or a resource path read from the URL.
 */
function pathLabels(kinds: MeteredKinds, request: MeteredHttpRequest, search: string): { labels: RequestLabels; kind?: ResolvedKind } | undefined {
  // Read at the end of the request: the door has taken its prefix off the URL by then.
  const raw = request.url.pathname;
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  if (HEALTH_PATHS.has(path)) return { labels: nonResourceRequestLabels(path, '') };
  if (path === '/api' || path === '/apis') {
    // Only the aggregated discovery handler is instrumented upstream.
    return aggregatedVersionAsked(request.header('accept')) ? { labels: nonResourceRequestLabels(path, APISERVER_COMPONENT) } : undefined;
  }
  const route = parseResourcePath(path);
  const contentType = request.method === 'PATCH' ? (request.header('content-type') ?? undefined) : undefined;
  return route ? resourceRouteLabels(kinds, route, request.method, search, contentType) : undefined;
}

/** The labels of a request for a resource route, or undefined when no instrumented route serves it. */
function resourceRouteLabels(
  kinds: MeteredKinds,
  route: ResourceRoute,
  method: string,
  search: string,
  contentType: string | undefined,
): { labels: RequestLabels; kind: ResolvedKind } | undefined {
  const kind = servedKind(kinds, route.group, route.version, route.resource, route.subresource);
  if (!kind) return undefined;
  if (!kind.namespaced && route.namespace !== undefined) return undefined;
  if (kind.namespaced && route.namespace === undefined && route.name !== undefined) return undefined;
  if (route.subpath && !kind.definition.connectSubresources?.[route.subresource ?? '']?.takesPath) return undefined;
  const params = search.includes('watch') || search.includes('dryRun') ? new URLSearchParams(search) : undefined;
  const verb = verbOfMethod(method, params, route.name !== undefined, route.subresource, route.legacyWatch);
  // A watch is recorded by the engine when it ends; an unknown method had no route.
  if (verb === undefined || verb === 'watch') return undefined;
  const labels = resourceRequestLabels(kind, {
    verb,
    version: route.version,
    namespace: route.namespace,
    name: route.name,
    subresource: route.subresource,
    patchType: verb === 'patch' && contentType?.startsWith('application/apply-patch+yaml') ? ('apply' as PatchType) : undefined,
    dryRun: search.includes('dryRun') ? params?.getAll('dryRun') : undefined,
  });
  return { labels, kind };
}

/** The verb a method asks of a route (the labels only need its class: a connect's is CONNECT anyway). */
function verbOfMethod(
  method: string,
  params: URLSearchParams | undefined,
  named: boolean,
  subresource: string | undefined,
  legacyWatch: boolean,
): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (legacyWatch || (params !== undefined && watchAsked(params))) return 'watch';
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
