/**
 * What a request asks, in an authorizer's terms (k8s.io/apiserver `pkg/endpoints/request`
 * RequestInfoFactory and `filters.GetAuthorizerAttributes`): the verb of a resource request, its
 * group, version, resource, subresource, namespace and name; a list or watch selecting one name
 * with `metadata.name=` is asked about that name.
 */
import type { AuthorizationAttributes } from '../machinery/auth.js';
import type { UserInfo } from '../machinery/request.js';
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
}

/** `path.IsValidPathSegmentName`: a name that can stand in a URL path. */
function validPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/** The attributes of a resource request by `user`. */
export function resourceAttributes(user: UserInfo, info: ResourceRequestInfo): AuthorizationAttributes {
  let name = info.name ?? '';
  if (name === '' && (info.verb === 'list' || info.verb === 'watch') && info.fieldSelector) {
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
    namespace: info.namespace ?? '',
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
