/**
 * The JWT authenticators of an AuthenticationConfiguration (plugin/pkg/authenticator/token/oidc
 * `New` and `AuthenticateToken`, joined as kube-apiserver joins them with a fail-on-error union):
 * each authenticator answers only tokens whose unverified `iss` is its issuer URL, discovers its
 * provider in the background (retrying every 10 s until it succeeds; until then its tokens are
 * refused with `oidc: authenticator not initialized`), verifies tokens against the issuer's keys,
 * and maps their claims to a user.
 */
import type { Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { AuthenticationMetrics } from '../../metrics/authentication.js';
import { aggregateMessage } from '../../../machinery/field-errors.js';
import type { AuthenticationResult, TokenAuthenticator } from '../../../machinery/auth.js';
import { goQuote } from '../../../util/go-format.js';
import { compileJwtAuthenticator, type AuthenticationConfiguration, type JWTAuthenticator, type JwtCelMapper } from '../../../config/authentication/index.js';
import { httpsGet, type HttpGet } from './http-get.js';
import { discoverProvider, RemoteKeySet } from './provider.js';
import { untrustedIssuer } from './token.js';
import { mapClaimsToUser } from './user-mapping.js';
import { verifyIdToken } from './verify.js';

/** The largest token looked at (Go's default limit on request headers, `http.DefaultMaxHeaderBytes`). */
export const MAX_TOKEN_BYTES = 1 << 20;

/** Options of {@link createJwtAuthenticators}. */
export interface JwtAuthenticatorOptions {
  /** The clock tokens are checked against, in ms since the epoch; `Date.now` by default. */
  readonly now?: () => number;
  /**
   * The agent (a proxy tunnel, an egress dialer) to reach a URL through, given the issuer's
   * `egressSelectorType` (`''`, `controlplane` or `cluster`); Node's default when it answers undefined.
   */
  readonly agentFor?: (url: URL, egressSelectorType: string) => Agent | undefined;
  /** Replaces the HTTPS client altogether (tests, custom transports); `agentFor` is then unused. */
  readonly httpGet?: HttpGet;
  /** The deadline of one discovery or key set request; 30 s, as the authenticator's `http.Client`. */
  readonly timeoutMs?: number;
  /** How long after a failed discovery the next try starts; 10 s, as upstream polls. */
  readonly discoveryRetryMs?: number;
  /** The shortest time between key set fetches an unknown key can trigger; 10 s. */
  readonly jwksMinRefreshIntervalMs?: number;
  /** Runs `fn` after `ms` and answers a function that cancels it; unref'd `setTimeout` by default. */
  readonly schedule?: (fn: () => void, ms: number) => () => void;
  /** Issuer URLs no authenticator may use (`--service-account-issuer`). */
  readonly disallowedIssuers?: readonly string[];
  /** Where the latency of tokens and the key set fetches are counted; nowhere by default. */
  readonly metrics?: Pick<AuthenticationMetrics, 'jwtToken' | 'jwksFetch'>;
}

/** The joined JWT authenticators. */
export interface JwtAuthenticators extends TokenAuthenticator {
  /**
   * Why authenticators are not ready, one message each as upstream's health check words it
   * (`oidc: authenticator for issuer "https://x" is not healthy: ...`); empty when all are.
   */
  healthCheck(): string[];
  /** Resolves once every discovery attempt under way has finished (successfully or not). */
  settled(): Promise<void>;
  /** Stops retrying discovery. */
  close(): void;
}

const defaultSchedule = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

/** One configured issuer. */
class JwtAuthenticator {
  private keySet: RemoteKeySet | undefined;
  private health: string;
  private attempt: Promise<void> = Promise.resolve();
  private cancelRetry: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly config: JWTAuthenticator,
    private readonly mapper: JwtCelMapper,
    private readonly settings: Required<Omit<JwtAuthenticatorOptions, 'agentFor' | 'httpGet' | 'disallowedIssuers' | 'metrics'>> & {
      readonly get: HttpGet;
      readonly metrics?: JwtAuthenticatorOptions['metrics'];
    },
  ) {
    this.health = `oidc: authenticator for issuer ${goQuote(config.issuer.url)} is not initialized`;
    this.discover();
  }

  private discover(): void {
    if (this.closed) return;
    const { issuer } = this.config;
    const s = this.settings;
    this.attempt = discoverProvider(issuer.url, {
      discoveryURL: issuer.discoveryURL,
      get: s.get,
      ca: issuer.certificateAuthority || undefined,
      timeoutMs: s.timeoutMs,
    }).then(
      (provider) => {
        if (this.closed) return;
        this.keySet = new RemoteKeySet(provider.jwksURL, {
          get: s.get,
          ca: issuer.certificateAuthority || undefined,
          timeoutMs: s.timeoutMs,
          now: s.now,
          minRefreshIntervalMs: s.jwksMinRefreshIntervalMs,
          ...(s.metrics ? { onFetch: (keySet: string | undefined) => s.metrics!.jwksFetch(issuer.url, keySet) } : {}),
        });
        this.health = '';
      },
      (e: unknown) => {
        this.health = e instanceof Error ? e.message : String(e);
        if (!this.closed) this.cancelRetry = s.schedule(() => this.discover(), s.discoveryRetryMs);
      },
    );
  }

  healthCheck(): string | undefined {
    return this.health ? `oidc: authenticator for issuer ${goQuote(this.config.issuer.url)} is not healthy: ${this.health}` : undefined;
  }

  settled(): Promise<void> {
    return this.attempt;
  }

  close(): void {
    this.closed = true;
    this.cancelRetry?.();
  }

  /**
   * Undefined for a token of another issuer; throws upstream's error for one of ours it refuses.
   * The tokens of its issuer are timed (`instrumentedAuthenticator`): the others are no work of its.
   */
  async authenticate(token: string): Promise<AuthenticationResult | undefined> {
    if (untrustedIssuer(token) !== this.config.issuer.url) return undefined;
    const metrics = this.settings.metrics;
    if (!metrics) return this.verify(token);
    const start = performance.now();
    try {
      const result = await this.verify(token);
      metrics.jwtToken(this.config.issuer.url, 'success', (performance.now() - start) / 1000);
      return result;
    } catch (e) {
      metrics.jwtToken(this.config.issuer.url, 'failure', (performance.now() - start) / 1000);
      throw e;
    }
  }

  private async verify(token: string): Promise<AuthenticationResult> {
    const keySet = this.keySet;
    if (!keySet) throw new Error('oidc: authenticator not initialized');
    let verified;
    try {
      verified = await verifyIdToken(token, { issuer: this.config.issuer.url, audiences: this.config.issuer.audiences, keySet, now: this.settings.now });
    } catch (e) {
      throw new Error(`oidc: verify token: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { user: mapClaimsToUser(this.config, this.mapper, verified.claims, verified.payloadText) };
  }
}

/**
 * Builds the JWT authenticators of a configuration, in order. Throws when an authenticator's
 * configuration is invalid (upstream's aggregated field errors); the configuration is otherwise
 * expected to have passed {@link validateAuthenticationConfiguration}.
 */
export function createJwtAuthenticators(
  config: AuthenticationConfiguration | readonly JWTAuthenticator[],
  options: JwtAuthenticatorOptions = {},
): JwtAuthenticators {
  const list = 'jwt' in config ? config.jwt : config;
  const settings = {
    now: options.now ?? Date.now,
    timeoutMs: options.timeoutMs ?? 30_000,
    discoveryRetryMs: options.discoveryRetryMs ?? 10_000,
    jwksMinRefreshIntervalMs: options.jwksMinRefreshIntervalMs ?? 10_000,
    schedule: options.schedule ?? defaultSchedule,
  };
  const agentFor = options.agentFor;
  const compiled = list.map((a) => {
    const { mapper, errors } = compileJwtAuthenticator(a, { disallowedIssuers: options.disallowedIssuers });
    if (errors.length) throw new Error(aggregateMessage(errors));
    return { a, mapper };
  });
  const authenticators = compiled.map(
    ({ a, mapper }) =>
      new JwtAuthenticator(a, mapper, {
        ...settings,
        get: options.httpGet ?? httpsGet(agentFor && ((url) => agentFor(url, a.issuer.egressSelectorType))),
        ...(options.metrics ? { metrics: options.metrics } : {}),
      }),
  );
  return {
    async authenticateToken(token: string): Promise<AuthenticationResult | undefined> {
      if (token.length > MAX_TOKEN_BYTES) return undefined;
      for (const a of authenticators) {
        const result = await a.authenticate(token);
        if (result) return result;
      }
      return undefined;
    },
    healthCheck: () => authenticators.map((a) => a.healthCheck()).filter((m): m is string => m !== undefined),
    settled: async () => {
      await Promise.all(authenticators.map((a) => a.settled()));
    },
    close: () => authenticators.forEach((a) => a.close()),
  };
}
