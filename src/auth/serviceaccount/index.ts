/**
 * Service account tokens as kube-apiserver makes and checks them: keys, issuer, authenticator, OIDC
 * discovery documents and the flags that configure them.
 */
import type { ServiceAccountTokenIssuer, TokenAuthenticator } from '../../machinery/auth.js';
import { createServiceAccountAuthenticator } from './authenticator.js';
import { jsonWebKeySet, openIDConfiguration, type JsonWebKeySet, type OpenIDConfiguration } from './discovery.js';
import { createServiceAccountTokenIssuer } from './issuer.js';
import { resolveServiceAccounts, type ServiceAccountFlags, type ServiceAccountSetup } from './options.js';
import type { ObjectReader } from './validators.js';

export { createServiceAccountAuthenticator, aggregateMessage, type ServiceAccountAuthenticatorOptions } from './authenticator.js';
export { boundClaims, legacyClaims, LEGACY_ISSUER, LEGACY_CLAIMS, serviceAccountUsername } from './claims.js';
export {
  DISCOVERY_MAX_AGE_SECONDS,
  JWKS_PATH,
  OPENID_CONFIG_PATH,
  jsonWebKeySet,
  openIDConfiguration,
  publicJwk,
  type DiscoveryOptions,
  type JsonWebKeySet,
  type OpenIDConfiguration,
  type PublicJwk,
} from './discovery.js';
export {
  createServiceAccountTokenIssuer,
  EXPIRATION_EXTENSION_SECONDS,
  WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS,
  type ServiceAccountTokenIssuerOptions,
} from './issuer.js';
export { CRYPTO_FAILURE } from './jws.js';
export {
  generateSigningKey,
  keyIdOf,
  NO_PRIVATE_KEY,
  NO_PUBLIC_KEYS,
  parseSigningKey,
  parseVerificationKeys,
  type SigningAlgorithm,
  type SigningKey,
  type VerificationKey,
} from './keys.js';
export {
  DEFAULT_ISSUER,
  resolveServiceAccounts,
  ServiceAccountOptionsError,
  validateServiceAccountFlags,
  type ServiceAccountFlags,
  type ServiceAccountSetup,
} from './options.js';
export { ALL_SERVICE_ACCOUNTS_GROUP, credentialIdForJti, EXTRA_KEYS, serviceAccountUser, type ServiceAccountInfo } from './user.js';
export { INVALID_SINCE_LABEL, LEEWAY_SECONDS, splitServiceAccountUsername, type ObjectReader } from './validators.js';

/**
 * A cluster's service account machinery, ready to use.
 * @category Authentication and authorization
 */
export interface ServiceAccountTokens {
  readonly setup: ServiceAccountSetup;
  readonly issuer: ServiceAccountTokenIssuer;
  readonly authenticator: TokenAuthenticator;
  /** `/.well-known/openid-configuration`, or why it is not served; `externalAddress` is the server's `host:port`. */
  discovery(externalAddress?: string): { ok: true; document: OpenIDConfiguration } | { ok: false; error: string };
  /** `/openid/v1/jwks`. */
  keySet(): JsonWebKeySet;
}

/**
 * Builds the issuer, authenticator and discovery documents of a cluster from its flags (throws
 * `ServiceAccountOptionsError`), or from `deps.setup`, flags resolved before (by the cluster a fork
 * came from: its keys are used as they are, not read again).
 */
export function createServiceAccountTokens(
  flags: ServiceAccountFlags,
  deps: { readonly read: ObjectReader; readonly now: () => number; readonly setup?: ServiceAccountSetup },
): ServiceAccountTokens {
  const setup = deps.setup ?? resolveServiceAccounts(flags);
  return {
    setup,
    issuer: createServiceAccountTokenIssuer({
      issuers: setup.issuers,
      signingKey: setup.signingKey,
      apiAudiences: setup.apiAudiences,
      maxExpirationSeconds: setup.maxExpirationSeconds,
      extendExpiration: setup.extendExpiration,
      now: deps.now,
    }),
    authenticator: createServiceAccountAuthenticator({
      issuers: setup.issuers,
      keys: setup.verificationKeys,
      apiAudiences: setup.apiAudiences,
      read: deps.read,
      now: deps.now,
    }),
    discovery: (externalAddress) => openIDConfiguration({ issuer: setup.issuers[0]!, jwksUri: setup.jwksUri, externalAddress, keys: setup.verificationKeys }),
    keySet: () => jsonWebKeySet(setup.verificationKeys),
  };
}
