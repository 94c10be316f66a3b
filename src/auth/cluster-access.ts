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
import { createRequestAuthenticator, type AnonymousPolicy, type AuthenticationRequest } from './authn/request-authenticator.js';
import { staticTokenAuthenticator, type StaticToken } from './authn/token-file.js';
import { unionTokenAuthenticator } from './authn/token-union.js';
import { privilegedGroupAuthorizer, unionAuthorizer } from './union.js';

/** How a cluster authenticates requests (`createCluster({ authentication })`). */
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
  /** Token authenticators of your own, asked after the built-in ones. */
  tokenAuthenticators?: readonly TokenAuthenticator[];
}

/** How a cluster authorizes requests (`createCluster({ authorization })`). */
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
  /** The user of a request, or an `AuthenticationError` (401). */
  authenticate(request: AuthenticationRequest): Promise<UserInfo>;
  /** The whole chain: `system:masters` first, then the modes, then the caller's authorizers. */
  readonly authorizer: Authorizer;
  /** Every token authenticator, as one (what TokenReview asks). */
  readonly tokens: TokenAuthenticator;
}

/** Builds a cluster's authentication and authorization. */
export function clusterAccess(
  authentication: AuthenticationOptions | undefined,
  authorization: AuthorizationOptions | undefined,
  deps: { storage: Storage; modes: ModeFactories; builtinTokens: readonly TokenAuthenticator[]; now: () => number },
): ClusterAccess {
  const anonymous = authentication?.anonymous ?? true;
  const tokens = unionTokenAuthenticator([
    ...(authentication?.tokens?.length ? [staticTokenAuthenticator(authentication.tokens)] : []),
    ...deps.builtinTokens,
    ...(authentication?.tokenAuthenticators ?? []),
  ]);
  const authenticate = createRequestAuthenticator({
    anonymous: typeof anonymous === 'boolean' ? { enabled: anonymous } : anonymous,
    tokens,
    apiAudiences: authentication?.apiAudiences,
  });
  const config = authorization?.config ?? configFromModes(authorization?.modes ?? ['AlwaysAllow']);
  const chain: Authorizer[] = [privilegedGroupAuthorizer];
  for (const entry of config.authorizers) {
    if (entry.type === 'AlwaysAllow') chain.push(alwaysAllowAuthorizer);
    else if (entry.type === 'AlwaysDeny') chain.push(alwaysDenyAuthorizer);
    else if (entry.type === 'Webhook') chain.push(createWebhookAuthorizer(entry, { now: deps.now }));
    else if (entry.type === 'RBAC' || entry.type === 'Node') {
      const factory = deps.modes[entry.type];
      if (!factory) throw new Error(`authorizer type ${JSON.stringify(entry.type)} is not available`);
      chain.push(factory(deps.storage));
    } else {
      throw new Error(`authorizer type ${JSON.stringify(entry.type)} is not supported by memkube`);
    }
  }
  chain.push(...(authorization?.authorizers ?? []));
  return { authenticate, authorizer: unionAuthorizer(chain), tokens };
}

/** The chain of `--authorization-mode` alone (no webhook flags): kube-apiserver's names for the modes. */
function configFromModes(modes: readonly string[]): AuthorizationConfig {
  return authorizationConfigFromFlags({ authorizationMode: modes.join(',') });
}
