/**
 * Counting what the authorizers decide and how requests authenticate, around the real thing:
 * `InstrumentedAuthorizer` of k8s.io/apiserver `pkg/authorization/metrics`, and the metrics of
 * the authentication filter (`WithAuthentication`) and of the x509 authenticator.
 */
import { performance } from 'node:perf_hooks';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import { AuthenticationError, type AuthenticationRequest } from '../authn/request-authenticator.js';
import type { AuthenticationMetrics } from './authentication.js';
import type { AuthorizationMetrics } from './authorization.js';

/**
 * `authorizer`, counting its allows and denies as `type`/`name` (its entry of the
 * AuthorizationConfiguration); no opinion is not a terminal decision and is not counted.
 */
export function instrumentedAuthorizer(type: string, name: string, authorizer: Authorizer, metrics: AuthorizationMetrics): Authorizer {
  return {
    async authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> {
      const result = await authorizer.authorize(attributes);
      // The decision names match SubjectAccessReview's status fields.
      if (result.decision === 'Allow') metrics.decision(type, name, 'allowed');
      else if (result.decision === 'Deny') metrics.decision(type, name, 'denied');
      return result;
    },
    rulesFor: (user, namespace) => authorizer.rulesFor(user, namespace),
  };
}

/**
 * `authenticate`, counting each request: `success` (and the user, collapsed), `failure` when the
 * request had no credentials to accept and anonymous requests were not allowed, `error` when
 * credentials were presented and refused; and, before anything else, the remaining lifetime of the
 * client certificate presented (expired ones included), as the x509 authenticator observes it.
 */
export function instrumentedAuthentication(
  authenticate: (request: AuthenticationRequest) => Promise<UserInfo>,
  metrics: AuthenticationMetrics,
  now: () => number,
): (request: AuthenticationRequest) => Promise<UserInfo> {
  return async (request) => {
    const start = performance.now();
    const notAfter = request.clientCertificate?.notAfter;
    if (notAfter !== undefined) metrics.clientCertificate((notAfter - now()) / 1000);
    try {
      const user = await authenticate(request);
      metrics.request('success', (performance.now() - start) / 1000, user.username);
      return user;
    } catch (e) {
      const outcome = e instanceof AuthenticationError && e.noCredentials ? 'failure' : 'error';
      metrics.request(outcome, (performance.now() - start) / 1000);
      throw e;
    }
  };
}
