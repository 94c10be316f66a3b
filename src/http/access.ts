/**
 * Who sends an HTTP request and whether they may: authentication (401, audited as kube-apiserver's
 * WithFailedAuthenticationAudit) and authorization with its audit annotations (WithAuthorization).
 */
import type { UserInfo, RequestAuditRecorder } from '../machinery/request.js';
import { internalError } from '../machinery/errors.js';
import { AuthenticationError } from '../auth/authn/request-authenticator.js';
import { forbiddenError, unauthorizedError } from '../auth/forbidden.js';
import { isPrivileged } from '../auth/union.js';
import { ANONYMOUS_USER, type AuthorizationAttributes, type Authorizer } from '../machinery/auth.js';
import { ANONYMOUS } from './users.js';
import { authenticationMethods } from './audit.js';
import type { HttpAccess, HttpRequest } from './door.js';

/**
 * The authenticated user of a request: 401 when its credentials are refused or it has none and
 * anonymous requests are off (audited first by `unauthenticated`, as WithFailedAuthenticationAudit).
 */
export async function authenticate(
  access: HttpAccess,
  request: HttpRequest,
  path: string,
  defaultUser: UserInfo,
  unauthenticated: ((message: string) => void | Promise<void>) | undefined,
): Promise<UserInfo> {
  let user: UserInfo;
  try {
    user = await access.authenticate({ header: (name) => request.header(name), path, clientCertificate: request.clientCertificate });
  } catch (e) {
    if (e instanceof AuthenticationError) {
      await unauthenticated?.(authenticationMethods(request));
      throw unauthorizedError();
    }
    throw e;
  }
  if (user.username === ANONYMOUS_USER && defaultUser !== ANONYMOUS) user = defaultUser;
  return user;
}

/**
 * Throws 403 (or 500 for an authorizer's error) unless the chain allows; `system:masters` is always
 * allowed. The decision and its reason are audit annotations, as WithAuthorization adds them.
 */
export async function authorizeHttp(authorizer: Authorizer, attributes: AuthorizationAttributes, audit: RequestAuditRecorder | undefined): Promise<void> {
  if (isPrivileged(attributes.user)) {
    annotateDecision(audit, 'allow', '');
    return;
  }
  const result = await authorizer.authorize(attributes);
  if (result.decision === 'Allow') {
    annotateDecision(audit, 'allow', result.reason);
    return;
  }
  if (result.evaluationError) {
    audit?.addAnnotation('authorization.k8s.io/reason', 'internal error');
    throw internalError(result.evaluationError);
  }
  annotateDecision(audit, 'forbid', result.reason);
  throw forbiddenError(attributes, result.reason);
}

function annotateDecision(audit: RequestAuditRecorder | undefined, decision: 'allow' | 'forbid', reason: string): void {
  if (!audit) return;
  audit.addAnnotation('authorization.k8s.io/decision', decision);
  audit.addAnnotation('authorization.k8s.io/reason', reason);
}
