/**
 * Counting how requests authenticate, around the request authenticator: the metrics of the
 * authentication filter (k8s.io/apiserver `WithAuthentication`) and of the x509 authenticator.
 */
import { performance } from 'node:perf_hooks';
import type { UserInfo } from '../../machinery/request.js';
import type { AuthenticationMetrics } from '../metrics/authentication.js';
import { AuthenticationError, type AuthenticationRequest } from './request-authenticator.js';

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
