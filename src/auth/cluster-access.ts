/**
 * A cluster's authentication and authorization, built from its options the way kube-apiserver
 * builds them from its flags: the token authenticators (static tokens, service account tokens,
 * JWT), anonymous requests, and the authorizer chain of `--authorization-mode` behind the
 * `system:masters` authorizer.
 */
import type { Authorizer, TokenAuthenticator } from '../machinery/auth.js';
import type { UserInfo } from '../machinery/request.js';
import type { Storage } from '../storage/storage.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from './always.js';
import { createRequestAuthenticator, type AnonymousPolicy, type AuthenticationRequest } from './authn/request-authenticator.js';
import { staticTokenAuthenticator, type StaticToken } from './authn/token-file.js';
import { unionTokenAuthenticator } from './authn/token-union.js';
import { privilegedGroupAuthorizer, unionAuthorizer } from './union.js';

/** The authorization modes of `--authorization-mode`. */
export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC' | 'Webhook' | 'Node';

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
  /** `--authorization-mode`: the authorizers, in order; `['AlwaysAllow']` by default. */
  modes?: readonly AuthorizationMode[];
  /** Authorizers of your own, asked after those of `modes`. */
  authorizers?: readonly Authorizer[];
}

/** What builds the authorizer of a mode that needs the cluster's state. */
export type ModeFactories = Partial<Record<AuthorizationMode, (storage: Storage) => Authorizer>>;

/** The built authentication and authorization of a cluster. */
export interface ClusterAccess {
  /** The user of a request, or an `AuthenticationError` (401). */
  authenticate(request: AuthenticationRequest): Promise<UserInfo>;
  /** The whole chain: `system:masters` first, then the modes, then the caller's authorizers. */
  readonly authorizer: Authorizer;
  /** Every token authenticator, as one (what TokenReview asks). */
  readonly tokens: TokenAuthenticator;
}

/** The ordered authorizers of `--authorization-mode`, as kube-apiserver refuses a bad list. */
export function validateAuthorizationModes(modes: readonly string[]): string[] {
  const errors: string[] = [];
  const known = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
  const seen = new Set<string>();
  for (const mode of modes) {
    if (!known.includes(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (mode === 'ABAC') errors.push('authorization-mode "ABAC" is not supported by memkube');
    if (seen.has(mode)) errors.push(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  return errors;
}

/** Builds a cluster's authentication and authorization. */
export function clusterAccess(
  authentication: AuthenticationOptions | undefined,
  authorization: AuthorizationOptions | undefined,
  deps: { storage: Storage; modes: ModeFactories; builtinTokens: readonly TokenAuthenticator[] },
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
  const modes = authorization?.modes ?? ['AlwaysAllow'];
  const errors = validateAuthorizationModes(modes);
  if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  const chain: Authorizer[] = [privilegedGroupAuthorizer];
  for (const mode of modes) {
    if (mode === 'AlwaysAllow') chain.push(alwaysAllowAuthorizer);
    else if (mode === 'AlwaysDeny') chain.push(alwaysDenyAuthorizer);
    else {
      const factory = deps.modes[mode];
      if (!factory) throw new Error(`authorization-mode ${JSON.stringify(mode)} is not available`);
      chain.push(factory(deps.storage));
    }
  }
  chain.push(...(authorization?.authorizers ?? []));
  return { authenticate, authorizer: unionAuthorizer(chain), tokens };
}
