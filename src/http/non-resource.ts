/**
 * The HTTP door's answers outside resource paths: `GET /`, `/version`, the service account
 * issuer's discovery documents, the health checks, `/metrics`, discovery and `/openapi`.
 */
import {
  aggregatedDiscovery,
  aggregatedVersionAsked,
  AGGREGATED_V2,
  AGGREGATED_V2BETA1,
  apiGroupDoc,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from './discovery.js';
import { encodeAnswer, textAnswer, type EncodedAnswer } from './encode.js';
import { methodNotAllowed, pathNotFound } from './errors.js';
import { openApiResponse } from './openapi.js';
import { healthResponse, versionInfo } from './version.js';
import { metricsPathResponse, metricsPaths } from './metrics.js';
import type { HttpAnswer, HttpCluster, HttpRequest } from './door.js';

function json(body: unknown, pretty: boolean, contentType = 'application/json', status = 200): EncodedAnswer {
  return encodeAnswer(status, body, 'json', contentType, pretty);
}

function trimSlash(pathname: string): string {
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** Discovery, version, health and OpenAPI; undefined for resource paths. */
export function nonResourceResponse(
  cluster: HttpCluster,
  request: HttpRequest,
  url: URL,
  pretty: boolean,
  prefix: string,
): Promise<HttpAnswer> | HttpAnswer | undefined {
  if (isResourcePath(url.pathname)) return undefined;
  const path = trimSlash(url.pathname);
  const parts = path.split('/').filter(Boolean);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    if (parts[0] === 'api' || parts[0] === 'apis') throw methodNotAllowed();
    throw pathNotFound();
  }
  const accept = request.header('accept');
  const registry = cluster.registry;
  if (path === '/') {
    return json(
      {
        paths: [
          ...(cluster.issuerDiscovery?.configuration(url.host) ? ['/.well-known/openid-configuration'] : []),
          '/api',
          '/api/v1',
          '/apis',
          ...groupPaths(cluster),
          '/healthz',
          '/livez',
          ...metricsPaths(cluster.apiServerMetrics, cluster.health),
          ...(cluster.issuerDiscovery?.configuration(url.host) ? ['/openid/v1/jwks'] : []),
          '/openapi/v2',
          '/openapi/v3',
          '/readyz',
          '/version',
        ],
      },
      pretty,
    );
  }
  if (path === '/version') return json(versionInfo(), pretty);
  if (cluster.issuerDiscovery && (path === '/.well-known/openid-configuration' || path === '/openid/v1/jwks')) {
    // pkg/routes/openidmetadata.go: served only when the issuer can have them, cached by clients for an hour.
    const doc = path === '/openid/v1/jwks' ? cluster.issuerDiscovery.keySet() : cluster.issuerDiscovery.configuration(url.host);
    if (doc) {
      const contentType = path === '/openid/v1/jwks' ? 'application/jwk-set+json' : 'application/json';
      // json.Marshal's bytes, computed once by kube-apiserver: compact for every client, no newline.
      return textAnswer(200, JSON.stringify(doc), contentType, new Headers({ 'cache-control': 'public, max-age=3600' }));
    }
  }
  const health = healthResponse(cluster.health, path, url.searchParams);
  if (health) return health;
  const metrics = metricsPathResponse(path, request, cluster.apiServerMetrics, cluster.health);
  if (metrics) return metrics;
  if (path === '/api' || path === '/apis') {
    const aggregated = aggregatedVersionAsked(accept);
    if (aggregated) {
      return json(aggregatedDiscovery(registry, path === '/api', aggregated), pretty, aggregated === 'v2' ? AGGREGATED_V2 : AGGREGATED_V2BETA1);
    }
    return json(path === '/api' ? apiVersions(url.host) : apiGroupList(registry), pretty);
  }
  if (parts[0] === 'api' && parts.length === 2) {
    const doc = apiResourceList(registry, '', parts[1]!);
    if (!doc) throw pathNotFound();
    return json(doc, pretty);
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const doc = apiGroupDoc(registry, parts[1]!);
    if (!doc) throw pathNotFound();
    return json(doc, pretty);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const doc = apiResourceList(registry, parts[1]!, parts[2]!);
    if (!doc) throw pathNotFound();
    return json(doc, pretty);
  }
  if (parts[0] === 'openapi') {
    const doc = openApiResponse(registry, request.request(), url, path, prefix);
    if (doc) return doc;
  }
  throw pathNotFound();
}

/** Whether a path names resources (`/api/v1/...`, `/apis/<group>/<version>/...`) rather than discovery or another document. */
export function isResourcePath(pathname: string): boolean {
  // Counted in place, empty segments skipped: every request asks, and splitting makes an array of strings.
  let segments = 0;
  let first = '';
  for (let i = 0; i < pathname.length && segments < 4;) {
    if (pathname.charCodeAt(i) === SLASH) {
      i++;
      continue;
    }
    const start = i;
    while (i < pathname.length && pathname.charCodeAt(i) !== SLASH) i++;
    if (segments === 0)
      first = i - start === 3 && pathname.startsWith('api', start) ? 'api' : i - start === 4 && pathname.startsWith('apis', start) ? 'apis' : '-';
    segments++;
  }
  return (first === 'api' && segments > 2) || (first === 'apis' && segments > 3);
}

const SLASH = 0x2f;

function groupPaths(cluster: HttpCluster): string[] {
  const out = new Set<string>();
  for (const k of cluster.registry.kinds()) {
    if (!k.group) continue;
    out.add(`/apis/${k.group}`);
    for (const v of k.versions) out.add(`/apis/${k.group}/${v.name}`);
  }
  return [...out].sort();
}
