/**
 * Resource paths of the Kubernetes API (`/api/v1/...`, `/apis/<group>/<version>/...`) to the parts
 * of a request, as Kubernetes' RequestInfoFactory splits them.
 */

import { decodeSegments, pathSegments } from '../util/path-segments.js';

/** A resource path, split. */
export interface ResourceRoute {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** A legacy `/watch/` path. */
  legacyWatch: boolean;
  /**
   * The decoded segments after the subresource (`['metrics', 'cadvisor']` of
   * `/api/v1/nodes/n1/proxy/metrics/cadvisor`), for a subresource that takes a path (a proxy);
   * an empty last segment stands for a trailing slash.
   */
  subpath?: string[];
}

/** Namespace subresources: `/api/v1/namespaces/x/status` is the namespace's, not a resource `status` in `x`. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Splits a resource path; `undefined` when the path names no resource (discovery paths, unknown
 * prefixes, or too many segments).
 */
export function parseResourcePath(pathname: string): ResourceRoute | undefined {
  const parts = pathSegments(pathname);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let segments: string[];
  try {
    segments = decodeSegments(rest);
  } catch {
    return undefined;
  }
  let legacyWatch = false;
  if (segments[0] === 'watch') {
    legacyWatch = true;
    segments = segments.slice(1);
  }
  let namespace: string | undefined;
  if (segments[0] === 'namespaces' && segments.length > 1) {
    namespace = segments[1];
    if (segments.length > 2 && !NAMESPACE_SUBRESOURCES.has(segments[2]!)) segments = segments.slice(2);
  }
  if (segments.length === 0) return undefined;
  // Segments past the subresource are its path: a proxy's; the handler refuses them for any other.
  const subpath = segments.length > 3 && !legacyWatch ? segments.slice(3) : undefined;
  if (subpath && pathname.endsWith('/')) subpath.push('');
  if (segments.length > 3 && !subpath) return undefined;
  const [resource, name, subresource] = segments as [string, string | undefined, string | undefined];
  if (resource === 'namespaces') {
    // `/api/v1/namespaces/x` (and its subresources) is the namespace `x` itself.
    return { group, version, resource, name, subresource, legacyWatch, ...(subpath ? { subpath } : {}) };
  }
  return { group, version, resource, namespace, name, subresource, legacyWatch, ...(subpath ? { subpath } : {}) };
}
