/**
 * Who sends an HTTP request and whether they may: authentication (401, audited as kube-apiserver's
 * WithFailedAuthenticationAudit) and authorization with its audit annotations (WithAuthorization).
 */
import type { UserInfo, RequestAuditRecorder } from '../machinery/request.js';
import { internalError } from '../machinery/errors.js';
import { AuthenticationError } from '../auth/authn/request-authenticator.js';
import { forbiddenError, unauthorizedError } from '../auth/forbidden.js';
import { isPrivileged } from '../auth/union.js';
import { ANONYMOUS_USER, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../machinery/auth.js';
import { isPromise } from '../util/maybe-promise.js';
import { ANONYMOUS } from './users.js';
import { authenticationMethods } from './audit.js';
import type { HttpAccess, HttpRequest } from './door.js';

/**
 * The authenticated user of a request: 401 when its credentials are refused or it has none and
 * anonymous requests are off (audited first by `unauthenticated`, as WithFailedAuthenticationAudit).
 * A promise only when the authenticator answers one or the refusal is audited.
 */
export function authenticate(
  access: HttpAccess,
  request: HttpRequest,
  path: string,
  defaultUser: UserInfo,
  unauthenticated: ((message: string) => void | Promise<void>) | undefined,
): UserInfo | Promise<UserInfo> {
  let answered: UserInfo | Promise<UserInfo>;
  try {
    answered = access.authenticate({ header: (name) => request.header(name), path, clientCertificate: request.clientCertificate });
  } catch (e) {
    return refused(e, request, unauthenticated);
  }
  if (isPromise(answered)) {
    return answered.then(
      (user) => withDefault(user, defaultUser),
      (e: unknown) => refused(e, request, unauthenticated),
    );
  }
  return withDefault(answered, defaultUser);
}

function withDefault(user: UserInfo, defaultUser: UserInfo): UserInfo {
  return user.username === ANONYMOUS_USER && defaultUser !== ANONYMOUS ? defaultUser : user;
}

/** A failed authentication: refused credentials are audited, then answered 401; anything else is passed on. */
async function refused(e: unknown, request: HttpRequest, unauthenticated: ((message: string) => void | Promise<void>) | undefined): Promise<never> {
  if (e instanceof AuthenticationError) {
    await unauthenticated?.(authenticationMethods(request));
    throw unauthorizedError();
  }
  throw e;
}

/**
 * Throws 403 (or 500 for an authorizer's error) unless the chain allows; `system:masters` is always
 * allowed. The decision and its reason are audit annotations, as WithAuthorization adds them. A
 * promise only when the authorizer answers one.
 */
export function authorizeHttp(authorizer: Authorizer, attributes: AuthorizationAttributes, audit: RequestAuditRecorder | undefined): void | Promise<void> {
  if (isPrivileged(attributes.user)) {
    annotateDecision(audit, 'allow', '');
    return;
  }
  const result = authorizer.authorize(attributes);
  if (isPromise(result)) return result.then((r) => decided(r, attributes, audit));
  decided(result, attributes, audit);
}

function decided(result: AuthorizationResult, attributes: AuthorizationAttributes, audit: RequestAuditRecorder | undefined): void {
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
