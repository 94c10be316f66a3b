/**
 * The answers of refused requests, worded as kube-apiserver's (k8s.io/apiserver
 * `pkg/endpoints/handlers/responsewriters` Forbidden and `filters.Unauthorized`).
 */
import type { AuthorizationAttributes } from '../machinery/auth.js';
import { ApiError, forbidden } from '../machinery/errors.js';

/** What `responsewriters.forbiddenMessage` says the user cannot do. */
export function forbiddenMessage(attributes: AuthorizationAttributes): string {
  const user = JSON.stringify(attributes.user.username);
  if (!attributes.resourceRequest) return `User ${user} cannot ${attributes.verb} path ${JSON.stringify(attributes.path ?? '')}`;
  const resource = attributes.subresource ? `${attributes.resource ?? ''}/${attributes.subresource}` : (attributes.resource ?? '');
  const group = JSON.stringify(attributes.apiGroup ?? '');
  const where = attributes.namespace ? `in the namespace ${JSON.stringify(attributes.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${attributes.verb} resource ${JSON.stringify(resource)} in API group ${group} ${where}`;
}

/** Go's responsewriters sanitizer: the message must not look like HTML. */
function sanitize(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The 403 of a request the authorizers did not allow (`ForbiddenStatusError`): `configmaps is
 * forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace
 * "default"`, followed by `: <reason>` when the authorizers gave one.
 */
export function forbiddenError(attributes: AuthorizationAttributes, reason: string): ApiError {
  const message = sanitize(forbiddenMessage(attributes));
  const why = reason ? `${message}: ${reason}` : message;
  const resource = attributes.resourceRequest ? (attributes.resource ?? '') : '';
  const group = attributes.resourceRequest ? (attributes.apiGroup ?? '') : '';
  if (!resource && !group) {
    // apierrors.NewForbidden with an empty GroupResource.
    return new ApiError({ code: 403, reason: 'Forbidden', message: `forbidden: ${why}`, details: {} });
  }
  return forbidden({ group, resource }, attributes.name ?? '', why);
}

/** The 401 of a request without acceptable credentials (`responsewriters.Unauthorized`). */
export function unauthorizedError(): ApiError {
  return new ApiError({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
}
