/**
 * A cluster's authentication and authorization, built from its options the way kube-apiserver
 * builds them from its flags: the token authenticators (static tokens, service account tokens,
 * JWT), anonymous requests, and the authorizer chain of `--authorization-mode` behind the
 * `system:masters` authorizer.
 */
import type { Authorizer, TokenAuthenticator } from '../machinery/auth.js';
import type { UserInfo } from '../machinery/request.js';
import type { Storage } from '../storage/storage.js';
import { authorizationConfigFromFlags } from '../config/authorization/flags.js';
import type { AuthorizationConfig, AuthorizationMode } from '../config/authorization/types.js';
import { createWebhookAuthorizer } from './webhook/authorizer.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from './always.js';
import type { Agent } from 'node:https';
import { ANONYMOUS_FLAG_CONFLICT } from '../config/authentication/load.js';
import type { AuthenticationConfiguration } from '../config/authentication/types.js';
import type { EgressDialer } from '../webhook/egress-dialer.js';
import { createJwtAuthenticators } from './authn/jwt/authenticator.js';
import { createRequestAuthenticator, type AnonymousPolicy, type AuthenticationRequest } from './authn/request-authenticator.js';
import { staticTokenAuthenticator, type StaticToken } from './authn/token-file.js';
import { unionTokenAuthenticator } from './authn/token-union.js';
import { bootstrapTokenAuthenticator, BOOTSTRAP_TOKEN_NAMESPACE, type BootstrapTokenSecret } from './authn/bootstrap-token.js';
import { privilegedGroupAuthorizer, unionAuthorizer } from './union.js';
import { MetricsRegistry } from '../metrics/registry.js';
import { apiserverIdentity } from '../tracing/index.js';
import { authenticationConfigurationText } from '../config/authentication/source.js';
import { authorizationConfigSource } from '../config/authorization/source.js';
import { authenticationMetrics, authorizationMetrics, instrumentedAuthorizer } from './metrics/index.js';
import { instrumentedAuthentication } from './authn/instrumented.js';

/**
 * How a cluster authenticates requests (`createCluster({ authentication })`).
 * @category Authentication and authorization
 */
export interface AuthenticationOptions {
  /**
   * `--anonymous-auth`: whether requests without credentials are served as `system:anonymous`
   * (group `system:unauthenticated`); true by default. An object limits them to some paths.
   */
  anonymous?: boolean | AnonymousPolicy;
  /** Static bearer tokens (`--token-auth-file`; see `parseTokenFile`). */
  tokens?: readonly StaticToken[];
  /** `--api-audiences`: the audiences tokens must be for; the service account issuer by default. */
  apiAudiences?: readonly string[];
  /**
   * `--enable-bootstrap-token-auth`: bearer tokens `<id>.<secret>` of the `bootstrap-token-<id>`
   * Secrets in `kube-system` authenticate as `system:bootstrap:<id>` (see docs/auth.md); off by default.
   */
  bootstrapTokens?: boolean;
  /** Token authenticators of your own, asked after the built-in ones. */
  tokenAuthenticators?: readonly TokenAuthenticator[];
  /**
   * An AuthenticationConfiguration (`--authentication-config`, see
   * `loadAuthenticationConfiguration`): its JWT authenticators, and its `anonymous` rules, which
   * may not be combined with `anonymous` here.
   */
  config?: AuthenticationConfiguration;
}

/**
 * How a cluster authorizes requests (`createCluster({ authorization })`).
 * @category Authentication and authorization
 */
export interface AuthorizationOptions {
  /**
   * `--authorization-mode`: the built-in authorizers, in order; `['AlwaysAllow']` by default.
   * `Webhook` needs `config` (or the legacy webhook flags translated into it).
   */
  modes?: readonly Exclude<AuthorizationMode, 'ABAC'>[];
  /**
   * The authorizer chain as an AuthorizationConfiguration file describes it (see
   * `loadAuthorizationConfiguration`, or `resolveAuthorizationConfig` for kube-apiserver's flags);
   * takes the place of `modes`.
   */
  config?: AuthorizationConfig;
  /** Authorizers of your own, asked after the configured ones. */
  authorizers?: readonly Authorizer[];
}

/** What builds the authorizer of a mode that needs the cluster's state. */
export type ModeFactories = Partial<Record<'RBAC' | 'Node', (storage: Storage) => Authorizer>>;

/** The built authentication and authorization of a cluster. */
export interface ClusterAccess {
  /** The user of a request, or an `AuthenticationError` (401): at once unless a token is checked. */
  authenticate(request: AuthenticationRequest): UserInfo | Promise<UserInfo>;
  /** The whole chain: `system:masters` first, then the modes, then the caller's authorizers. */
  readonly authorizer: Authorizer;
  /** Every token authenticator, as one (what TokenReview asks). */
  readonly tokens: TokenAuthenticator;
  /** Stops the JWT authenticators' discovery and key refreshes. */
  close(): void;
}

/**
 * How the cluster's own clients reach webhooks and issuers (`--egress-selector-config-file`).
 * @category Configuration files
 */
export interface AccessEgress {
  /** The dialer of an egress selection; undefined when it connects directly or is not configured. */
  dialerFor(selection: 'controlplane' | 'cluster'): EgressDialer | undefined;
  /** The HTTP agent of an egress selection; undefined when it connects directly or is not configured. */
  agentFor(selection: 'controlplane' | 'cluster'): Agent | undefined;
}

/**
 * kube-apiserver's `WrapAudienceAgnosticToken`: a token authenticator that knows nothing of
 * audiences (static tokens, JWT authenticators, which check their own) answers for the API
 * audiences, and only when the audiences asked about include one of them. The answer's audiences
 * are those asked about that are API audiences, in the order asked (`Audiences.Intersect`), so a
 * TokenReview for `[a]` of a server with `--api-audiences a,b` answers `[a]`; asked about no
 * audiences, it answers none.
 */
function audienceAgnostic(implicit: readonly string[] | undefined, delegate: TokenAuthenticator): TokenAuthenticator {
  if (!implicit?.length) return delegate;
  return {
    async authenticateToken(token, audiences) {
      if (!audiences) return delegate.authenticateToken(token, audiences);
      const common = audiences.filter((a) => implicit.includes(a));
      if (common.length === 0) return undefined;
      const result = await delegate.authenticateToken(token, audiences);
      return result && { ...result, audiences: common };
    },
  };
}

/** Builds a cluster's authentication and authorization. */
export function clusterAccess(
  authentication: AuthenticationOptions | undefined,
  authorization: AuthorizationOptions | undefined,
  deps: {
    storage: Storage;
    modes: ModeFactories;
    builtinTokens: readonly TokenAuthenticator[];
    now: () => number;
    egress?: AccessEgress;
    /** The service account issuers, which no JWT authenticator may claim. */
    serviceAccountIssuers?: readonly string[];
    /** The API server's registry, where authentication and authorization are counted; nowhere by default. */
    metrics?: MetricsRegistry;
    /** The API server's identity, hashed into some metrics' labels; kube-apiserver's host-based one by default. */
    apiServerId?: string;
  },
): ClusterAccess {
  const registry = deps.metrics ?? new MetricsRegistry({ disabled: true });
  const apiServerId = registry.enabled ? (deps.apiServerId ?? apiserverIdentity()) : '';
  const authnMetrics = authenticationMetrics(registry, apiServerId, deps.now);
  const authzMetrics = authorizationMetrics(registry, apiServerId);
  const config = authentication?.config;
  if (config?.anonymous && authentication?.anonymous !== undefined) throw new Error(ANONYMOUS_FLAG_CONFLICT);
  const anonymous: AnonymousPolicy = config?.anonymous
    ? { enabled: config.anonymous.enabled, conditions: config.anonymous.conditions }
    : typeof authentication?.anonymous === 'object'
      ? authentication.anonymous
      : { enabled: authentication?.anonymous ?? true };
  const apiAudiences = authentication?.apiAudiences;
  const jwt = config?.jwt.length
    ? createJwtAuthenticators(config, {
        now: deps.now,
        disallowedIssuers: deps.serviceAccountIssuers,
        ...(registry.enabled ? { metrics: authnMetrics } : {}),
        ...(deps.egress
          ? {
              agentFor: (_url: URL, selection: string) =>
                selection === 'controlplane' || selection === 'cluster' ? deps.egress!.agentFor(selection) : undefined,
            }
          : {}),
      })
    : undefined;
  const tokens = unionTokenAuthenticator([
    ...(authentication?.tokens?.length ? [audienceAgnostic(apiAudiences, staticTokenAuthenticator(authentication.tokens))] : []),
    ...deps.builtinTokens,
    // After the service account tokens and before JWT, in kube-apiserver's order.
    ...(authentication?.bootstrapTokens
      ? [
          audienceAgnostic(
            apiAudiences,
            bootstrapTokenAuthenticator({
              readSecret: async (name) =>
                (await deps.storage.get({ bucket: 'core/secrets', namespace: BOOTSTRAP_TOKEN_NAMESPACE, name }))?.value as BootstrapTokenSecret | undefined,
              now: deps.now,
            }),
          ),
        ]
      : []),
    ...(jwt ? [audienceAgnostic(apiAudiences, jwt)] : []),
    ...(authentication?.tokenAuthenticators ?? []),
  ]);
  const requestAuthenticator = createRequestAuthenticator({ anonymous, tokens, apiAudiences });
  const authenticate = registry.enabled ? instrumentedAuthentication(requestAuthenticator, authnMetrics, deps.now) : requestAuthenticator;
  // There is no reloading of either configuration in memkube: what is loaded is what is used.
  if (config) authnMetrics.configLoaded(authenticationConfigurationText(config) ?? JSON.stringify(config));
  const authzConfig = authorization?.config ?? configFromModes(authorization?.modes ?? ['AlwaysAllow']);
  const authzSource = authorizationConfigSource(authzConfig);
  if (authzSource !== 'flags') authzMetrics.configLoaded(authzSource === 'code' ? JSON.stringify(authzConfig) : authzSource.text);
  const authorizers = authzConfig.authorizers;
  const chain: Authorizer[] = [privilegedGroupAuthorizer];
  const closers: (() => void)[] = [];
  // Every configured authorizer counts its decisions; the system:masters one before them does not.
  const counted = (entry: { type: string; name: string }, authorizer: Authorizer) =>
    chain.push(registry.enabled ? instrumentedAuthorizer(entry.type, entry.name, authorizer, authzMetrics) : authorizer);
  for (const entry of authorizers) {
    if (entry.type === 'AlwaysAllow') counted(entry, alwaysAllowAuthorizer);
    else if (entry.type === 'AlwaysDeny') counted(entry, alwaysDenyAuthorizer);
    else if (entry.type === 'Webhook') {
      const egress = deps.egress?.dialerFor('controlplane');
      counted(entry, createWebhookAuthorizer(entry, { now: deps.now, ...(registry.enabled ? { metrics: authzMetrics } : {}), ...(egress ? { egress } : {}) }));
    } else if (entry.type === 'RBAC' || entry.type === 'Node') {
      const factory = deps.modes[entry.type];
      if (!factory) throw new Error(`authorizer type ${JSON.stringify(entry.type)} is not available`);
      const authorizer = factory(deps.storage);
      const closable = authorizer as Authorizer & { close?: () => void };
      if (typeof closable.close === 'function') closers.push(() => closable.close!());
      counted(entry, authorizer);
    } else {
      throw new Error(`authorizer type ${JSON.stringify(entry.type)} is not supported by memkube`);
    }
  }
  chain.push(...(authorization?.authorizers ?? []));
  return {
    authenticate,
    authorizer: unionAuthorizer(chain),
    tokens,
    close: () => {
      jwt?.close();
      for (const close of closers) close();
    },
  };
}

/** The chain of `--authorization-mode` alone (no webhook flags): kube-apiserver's names for the modes. */
function configFromModes(modes: readonly string[]): AuthorizationConfig {
  return authorizationConfigFromFlags({ authorizationMode: modes.join(',') });
}
