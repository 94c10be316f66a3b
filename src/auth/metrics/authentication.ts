/**
 * The authentication metrics of kube-apiserver, declared on a cluster's registry:
 *
 * - the request filter's (k8s.io/apiserver `pkg/endpoints/filters/metrics.go`):
 *   `authenticated_user_requests{username}`, `authentication_attempts{result}` and
 *   `authentication_duration_seconds{result}`, once per authenticated request;
 * - the x509 authenticator's `apiserver_client_certificate_expiration_seconds`
 *   (`pkg/authentication/request/x509/x509.go`), once per request presenting a certificate;
 * - the JWT authenticators' (`plugin/pkg/authenticator/token/oidc/metrics.go`): the latency of
 *   tokens of their issuer, the time of the last key set fetch and the hash of the keys fetched;
 * - `apiserver_authentication_config_controller_last_config_info`, the hash of the
 *   AuthenticationConfiguration in use (`pkg/kubeapiserver/authenticator/.../metrics`).
 *
 * Labels never carry what a client chose: usernames collapse to a few categories, issuers and the
 * server's identity are hashed.
 */
import type { CounterSeries, MetricsRegistry } from '../../metrics/registry.js';
import { metricHash } from './hash.js';

/** How one request's authentication ended, as the filter labels it. */
export type AuthenticationOutcome = 'success' | 'failure' | 'error';

/** What the authenticators report. */
export interface AuthenticationMetrics {
  /** One request authenticated (or not), `seconds` after it started; `username` when it succeeded. */
  request(outcome: AuthenticationOutcome, seconds: number, username?: string): void;
  /** A request presented a client certificate whose leaf expires `seconds` from now (negative once expired). */
  clientCertificate(seconds: number): void;
  /** A JWT authenticator of `issuer` verified (`success`) or refused (`failure`) one of its tokens. */
  jwtToken(issuer: string, result: 'success' | 'failure', seconds: number): void;
  /** A JWT authenticator fetched its issuer's key set: `keySet` is the document fetched, undefined when the fetch failed. */
  jwksFetch(issuer: string, keySet: string | undefined): void;
  /** The AuthenticationConfiguration in use is `data` (the text of its file). */
  configLoaded(data: string): void;
}

/** `metrics.ExponentialBuckets(0.001, 2, 15)`: 1 ms to about 16 s. */
const AUTHENTICATION_DURATION_BUCKETS = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

/** The client certificate histogram's buckets: 0, 30 min, 1 h, 2 h, 6 h, 12 h, 1 d, 2 d, 4 d, 1 w, 1 month, 3, 6 and 12 months. */
export const CLIENT_CERTIFICATE_EXPIRATION_BUCKETS = [
  0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000, 7776000, 15552000, 31104000,
] as const;

/** The JWT latency buckets: the default ones with a 1 ms start. */
const JWT_LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NAMED_USERS: ReadonlySet<string> = new Set(['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default']);

/**
 * `compressUsername`: the few usernames kube-apiserver names as they are, `email_id` for what
 * looks like an email address, `other` for everything else, so that the metric neither grows with
 * the users nor tells their names.
 */
export function compressUsername(username: string): string {
  if (NAMED_USERS.has(username)) return username;
  return username.includes('@') ? 'email_id' : 'other';
}

/**
 * Declares the authentication metrics on `registry` for the API server `apiServerId`; `now` (ms
 * since the epoch) stamps the key set fetches.
 */
export function authenticationMetrics(registry: MetricsRegistry, apiServerId: string, now: () => number): AuthenticationMetrics {
  const idHash = metricHash(apiServerId);
  const userRequests = registry.counter({
    name: 'authenticated_user_requests',
    help: 'Counter of authenticated requests broken out by username.',
    labelNames: ['username'],
  });
  const attempts = registry.counter({ name: 'authentication_attempts', help: 'Counter of authenticated attempts.', labelNames: ['result'] });
  const duration = registry.histogram({
    name: 'authentication_duration_seconds',
    help: 'Authentication duration in seconds broken out by result.',
    labelNames: ['result'],
    buckets: AUTHENTICATION_DURATION_BUCKETS,
  });
  const certificateExpiration = registry.histogram({
    name: 'apiserver_client_certificate_expiration_seconds',
    help: 'Distribution of the remaining lifetime on the certificate used to authenticate a request.',
    buckets: CLIENT_CERTIFICATE_EXPIRATION_BUCKETS,
  });
  const jwtLatency = registry.histogram({
    name: 'apiserver_authentication_jwt_authenticator_latency_seconds',
    help: 'Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
    labelNames: ['jwt_issuer_hash', 'result'],
    buckets: JWT_LATENCY_BUCKETS,
  });
  const jwksTimestamp = registry.gauge({
    name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_timestamp_seconds',
    help: 'Timestamp of the last successful or failed JWKS fetch split by result, api server identity and jwt issuer for the JWT authenticator.',
    labelNames: ['apiserver_id_hash', 'jwt_issuer_hash', 'result'],
  });
  const jwksKeySet = registry.gauge({
    name: 'apiserver_authentication_jwt_authenticator_jwks_fetch_last_key_set_info',
    help: 'Information about the last JWKS fetched by the JWT authenticator with hash as label, split by api server identity and jwt issuer.',
    labelNames: ['apiserver_id_hash', 'hash', 'jwt_issuer_hash'],
  });
  const configInfo = registry.gauge({
    name: 'apiserver_authentication_config_controller_last_config_info',
    help: 'Information about the last applied authentication configuration with hash as label, split by apiserver identity.',
    labelNames: ['apiserver_id_hash', 'hash'],
  });
  // The info gauges hold one series per issuer (and one for the configuration): the last hash.
  const lastKeySetHash = new Map<string, string>();
  // Every request counts in these: their few series are found once, not per request.
  const byOutcome = (result: AuthenticationOutcome) => ({ attempts: attempts.with({ result }), duration: duration.with({ result }) });
  const outcomes = { success: byOutcome('success'), failure: byOutcome('failure'), error: byOutcome('error') };
  const users = new Map<string, CounterSeries>();
  // Most requests come from the user of the one before: its series is kept at hand.
  let lastUsername: string | undefined;
  let lastSeries: CounterSeries | undefined;
  return {
    request(outcome, seconds, username) {
      if (outcome === 'success' && username !== undefined) {
        if (username !== lastUsername) {
          const user = compressUsername(username);
          let series = users.get(user);
          if (!series) users.set(user, (series = userRequests.with({ username: user })));
          lastUsername = username;
          lastSeries = series;
        }
        lastSeries!.inc();
      }
      const o = outcomes[outcome];
      o.attempts.inc();
      o.duration.observe(seconds);
    },
    clientCertificate(seconds) {
      certificateExpiration.observe({}, seconds);
    },
    jwtToken(issuer, result, seconds) {
      jwtLatency.observe({ jwt_issuer_hash: metricHash(issuer), result }, seconds);
    },
    jwksFetch(issuer, keySet) {
      const issuerHash = metricHash(issuer);
      jwksTimestamp.set({ apiserver_id_hash: idHash, jwt_issuer_hash: issuerHash, result: keySet === undefined ? 'failure' : 'success' }, now() / 1000);
      if (keySet === undefined) return;
      const hash = metricHash(keySet);
      const previous = lastKeySetHash.get(issuerHash);
      if (previous !== undefined && previous !== hash) jwksKeySet.remove({ apiserver_id_hash: idHash, hash: previous, jwt_issuer_hash: issuerHash });
      lastKeySetHash.set(issuerHash, hash);
      jwksKeySet.set({ apiserver_id_hash: idHash, hash, jwt_issuer_hash: issuerHash }, 1);
    },
    configLoaded(data) {
      configInfo.reset();
      configInfo.set({ apiserver_id_hash: idHash, hash: metricHash(data) }, 1);
    },
  };
}
