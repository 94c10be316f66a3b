/**
 * What a request asks, in an authorizer's terms (k8s.io/apiserver `pkg/endpoints/request`
 * RequestInfoFactory and `filters.GetAuthorizerAttributes`): the verb of a resource request, its
 * group, version, resource, subresource, namespace and name; a list or watch selecting one name
 * with `metadata.name=` is asked about that name.
 */
import { decodeSegments, pathSegments } from '../util/path-segments.js';
import type { AuthorizationAttributes } from '../machinery/auth.js';
import type { ApiRequest, UserInfo } from '../machinery/request.js';
import { parseFieldSelector } from '../selectors/field-selector.js';

/** The parts of a resource request an authorizer sees. */
export interface ResourceRequestInfo {
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
  readonly path?: string;
  /**
   * Set for a legacy `/watch/` path: its verb comes from the path, so kube-apiserver never turns
   * its `metadata.name=` field selector into a name.
   */
  readonly verbFromPath?: boolean;
}

/** `path.IsValidPathSegmentName`: a name that can stand in a URL path. */
function validPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/** The attributes of an engine request (its user, verb, target and selectors), as the engine authorizes it. */
export function apiRequestAttributes(req: ApiRequest): AuthorizationAttributes {
  return resourceAttributes(req.user, {
    verb: req.verb,
    group: req.resource.group,
    version: req.resource.version,
    resource: req.resource.resource,
    subresource: req.subresource,
    namespace: req.namespace,
    name: req.name,
    fieldSelector: req.listOptions?.fieldSelector,
    labelSelector: req.listOptions?.labelSelector,
  });
}

/** The attributes of a resource request by `user`. */
export function resourceAttributes(user: UserInfo, info: ResourceRequestInfo): AuthorizationAttributes {
  let name = info.name ?? '';
  let namespace = info.namespace ?? '';
  // `/api/v1/namespaces/<n>` is in the namespace <n> for RequestInfoFactory (the path's namespace
  // segment is its name), so a RoleBinding in <n> may grant reading <n> itself. The in-process
  // client names the namespace without a path: it is asked the same way.
  if (namespace === '' && info.group === '' && info.resource === 'namespaces') namespace = name;
  if (name === '' && !info.verbFromPath && (info.verb === 'list' || info.verb === 'watch') && info.fieldSelector) {
    // RequestInfoFactory: a list or watch of `metadata.name=<n>` is a request about <n>.
    try {
      const exact = parseFieldSelector(info.fieldSelector).exactValue('metadata.name');
      if (exact !== undefined && validPathSegmentName(exact)) name = exact;
    } catch {
      /* an unparsable selector is refused later, by the verb */
    }
  }
  return {
    user,
    verb: info.verb,
    resourceRequest: true,
    path: info.path,
    namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource ?? '',
    name,
    fieldSelector: info.fieldSelector,
    labelSelector: info.labelSelector,
  };
}

/** The attributes of a non-resource request (`/version`, `/healthz`, discovery): the lower-cased method on the path. */
export function nonResourceAttributes(user: UserInfo, method: string, path: string): AuthorizationAttributes {
  return { user, verb: method.toLowerCase(), resourceRequest: false, path };
}

/** `RequestInfoFactory.specialVerbs`: a verb given as the first segment after the version. */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** The verb of a method on a resource path, before the path and query refine it. */
const VERB_OF_METHOD: ReadonlyMap<string, string> = new Map([
  ['POST', 'create'],
  ['GET', 'get'],
  ['HEAD', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
]);
/** `namespaceSubresources`: `/namespaces/<n>/status` is the namespace's own subresource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * `RequestInfoFactory.NewRequestInfo` for the resource prefixes `/api` (no group) and `/apis`:
 * what an HTTP request asks, read from its method, path and query alone, before any routing. So a
 * path memkube does not serve (`.../pods/x/proxy/a/b`, `/api/v1/proxy/...`) is still authorized
 * as the resource request kube-apiserver sees, and refused with the same 403. Undefined for
 * non-resource paths (`/healthz`, `/apis/apps/v1`).
 */
export function httpRequestInfo(method: string, pathname: string, query: URLSearchParams): ResourceRequestInfo | undefined {
  const all = pathSegments(pathname);
  if (all.length < 3 || (all[0] !== 'api' && all[0] !== 'apis')) return undefined;
  let group = '';
  let at = 1;
  if (all[0] === 'apis') {
    if (all.length < 4) return undefined;
    group = all[1]!;
    at = 2;
  }
  const version = all[at]!;
  let parts: string[];
  try {
    parts = decodeSegments(all.slice(at + 1));
  } catch {
    return undefined;
  }
  let verb: string;
  let verbFromPath = false;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    // kube-apiserver fails such a request ("unable to determine kind and namespace"); it is left to routing here.
    if (parts.length < 2) return undefined;
    verb = parts[0]!;
    parts = parts.slice(1);
    verbFromPath = true;
  } else {
    verb = VERB_OF_METHOD.get(method) ?? '';
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  const name = parts.length >= 2 ? parts[1] : undefined;
  // A proxy verb takes no subresource: the rest of the path is where it goes.
  const subresource = parts.length >= 3 && verb !== 'proxy' ? parts[2] : undefined;
  if (name === undefined && verb === 'get') verb = queryWatch(query) ? 'watch' : 'list';
  if (name === undefined && verb === 'delete') verb = 'deletecollection';
  return {
    verb,
    group,
    version,
    resource,
    subresource,
    namespace,
    name,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    labelSelector: query.get('labelSelector') ?? undefined,
    path: pathname,
    verbFromPath,
  };
}

/** The `watch` parameter as the parameter codec reads it: true unless absent, `0` or `false`. */
function queryWatch(query: URLSearchParams): boolean {
  const v = query.get('watch');
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}
