/**
 * The service account token issuer (`ServiceAccountTokenIssuer` of machinery/auth.ts): signs bound
 * tokens for TokenRequests (kubernetes/kubernetes `pkg/registry/core/serviceaccount/storage/token.go`
 * after its checks: the claims of `pkg/serviceaccount/claims.go`, the projected-token expiration
 * extension) and legacy tokens for the token controller (`legacy.go` LegacyClaims), with the first
 * `--service-account-issuer` as `iss`.
 */
import { randomUUID } from 'node:crypto';
import { formatTime } from '../../clock.js';
import type { ServiceAccountTokenIssuer, ServiceAccountTokenRequest } from '../../machinery/auth.js';
import { boundClaims, legacyClaims } from './claims.js';
import { signCompact } from './jws.js';
import type { SigningKey } from './keys.js';

/**
 * `WarnOnlyBoundTokenExpirationSeconds`: the expiry kubelet asks for projected tokens; such a
 * pod-bound token for the API's own audiences is extended (`--service-account-extend-token-expiration`).
 */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** `ExpirationExtensionSeconds`: how long an extended token really lives (a year). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

/** How the issuer is configured. */
export interface ServiceAccountTokenIssuerOptions {
  /** `--service-account-issuer`; the first is the `iss` of new tokens. */
  readonly issuers: readonly string[];
  readonly signingKey: SigningKey;
  /** `--api-audiences` (the issuers when not given). */
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 for none. */
  readonly maxExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (true by default, as kube-apiserver's). */
  readonly extendExpiration?: boolean;
  /** Cluster time, epoch milliseconds. */
  readonly now: () => number;
  /** The `jti` of a new token; a random UUID by default. */
  readonly newJti?: () => string;
}

/** Creates the issuer. */
export function createServiceAccountTokenIssuer(options: ServiceAccountTokenIssuerOptions): ServiceAccountTokenIssuer {
  const issuer = options.issuers[0] ?? '';
  const apiAudiences = new Set(options.apiAudiences);
  const extend = options.extendExpiration ?? true;
  return {
    apiAudiences: [...options.apiAudiences],
    maxExpirationSeconds: options.maxExpirationSeconds ?? 0,
    async issueBound(request: ServiceAccountTokenRequest) {
      const nowMs = options.now();
      const now = Math.floor(nowMs / 1000);
      let exp = request.expirationSeconds;
      let warnAfter = 0;
      // A projected token kubelet asks for keeps working (with a warning) for a year, so workloads
      // that read their token rarely do not fail at once.
      if (
        extend &&
        request.boundObject?.kind === 'Pod' &&
        request.expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS &&
        request.audiences.every((a) => apiAudiences.has(a))
      ) {
        warnAfter = exp;
        exp = EXPIRATION_EXTENSION_SECONDS;
      }
      const bound = request.boundObject;
      const claims = boundClaims({
        issuer,
        namespace: request.namespace,
        serviceAccount: request.serviceAccount,
        audiences: request.audiences,
        now,
        expirationSeconds: exp,
        warnAfterSeconds: warnAfter,
        jti: (options.newJti ?? randomUUID)(),
        pod: bound?.kind === 'Pod' ? bound : undefined,
        secret: bound?.kind === 'Secret' ? bound : undefined,
        node: bound?.kind === 'Node' ? bound : bound?.kind === 'Pod' ? bound.node : undefined,
      });
      return { token: signCompact(claims, options.signingKey), expirationTimestamp: formatTime(now * 1000 + request.expirationSeconds * 1000) };
    },
    async issueLegacy(secret) {
      return signCompact(legacyClaims(secret), options.signingKey);
    },
  };
}
