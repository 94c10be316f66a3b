/**
 * Counting how requests authenticate, around the request authenticator: the metrics of the
 * authentication filter (k8s.io/apiserver `WithAuthentication`) and of the x509 authenticator.
 */
import { performance } from 'node:perf_hooks';
import type { UserInfo } from '../../machinery/request.js';
import type { AuthenticationMetrics } from '../metrics/authentication.js';
import { AuthenticationError, type AuthenticateRequest } from './request-authenticator.js';

/**
 * `authenticate`, counting each request: `success` (and the user, collapsed), `failure` when the
 * request had no credentials to accept and anonymous requests were not allowed, `error` when
 * credentials were presented and refused; and, before anything else, the remaining lifetime of the
 * client certificate presented (expired ones included), as the x509 authenticator observes it.
 * An answer `authenticate` gives at once is counted at once: no promise is made for it.
 */
export function instrumentedAuthentication(authenticate: AuthenticateRequest, metrics: AuthenticationMetrics, now: () => number): AuthenticateRequest {
  const failed = (e: unknown, start: number): never => {
    const outcome = e instanceof AuthenticationError && e.noCredentials ? 'failure' : 'error';
    metrics.request(outcome, (performance.now() - start) / 1000);
    throw e;
  };
  const succeeded = (user: UserInfo, start: number): UserInfo => {
    metrics.request('success', (performance.now() - start) / 1000, user.username);
    return user;
  };
  return (request) => {
    const start = performance.now();
    const notAfter = request.clientCertificate?.notAfter;
    if (notAfter !== undefined) metrics.clientCertificate((notAfter - now()) / 1000);
    let answer: UserInfo | Promise<UserInfo>;
    try {
      answer = authenticate(request);
    } catch (e) {
      return failed(e, start);
    }
    if (!(answer instanceof Promise)) return succeeded(answer, start);
    return answer.then(
      (user) => succeeded(user, start),
      (e: unknown) => failed(e, start),
    );
  };
}
