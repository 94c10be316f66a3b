/**
 * The service account token authenticator of kube-apiserver: kubernetes/kubernetes
 * `pkg/serviceaccount/jwt.go` JWTTokenAuthenticator twice, as the authenticator config builds it
 * (secret-based tokens with the issuer `kubernetes/serviceaccount` and the legacy validator, then
 * bound tokens with every `--service-account-issuer` and the bound validator), joined as
 * k8s.io/apiserver's union authenticator joins them (the first to accept wins; else every error,
 * aggregated).
 *
 * A token that is not a compact JWS, or whose unverified `iss` names none of the issuers, is not
 * ours: `undefined`, so the next authenticator may try it. A token with our issuer is ours to
 * refuse: an `Error` with upstream's message (bad signature, wrong audience, expired, revoked).
 */
import type { AuthenticationResult, TokenAuthenticator } from '../../machinery/auth.js';
import { goQuote } from '../../util/go-format.js';
import {
  ClaimsDecodeError,
  decodeBoundPrivateClaims,
  decodeLegacyPrivateClaims,
  decodePublicClaims,
  goField,
  LEGACY_ISSUER,
  type PublicClaims,
} from './claims.js';
import { CRYPTO_FAILURE, decodeBase64Url, parseCompact, parseJsonObject, verifySignature } from './jws.js';
import type { VerificationKey } from './keys.js';
import { serviceAccountUser, type ServiceAccountInfo } from './user.js';
import { validateBound, validateLegacy, type ObjectReader } from './validators.js';

/** How the authenticator is configured. */
export interface ServiceAccountAuthenticatorOptions {
  /** Every `--service-account-issuer`: bound tokens of any of them are accepted. */
  readonly issuers: readonly string[];
  /** The keys that verify tokens (`--service-account-key-file`). */
  readonly keys: readonly VerificationKey[];
  /** `--api-audiences` (the issuers by default): the audiences of a request that names none, and of a legacy token. */
  readonly apiAudiences: readonly string[];
  /** Reads the cluster's current state (service accounts, secrets, pods, nodes). */
  readonly read: ObjectReader;
  /** Cluster time, epoch milliseconds. */
  readonly now: () => number;
}

/** A validator with the private claims it decodes (go-jose decodes both sets of claims with the signature). */
interface Validator<P> {
  decode(payload: Record<string, unknown>): P;
  validate(token: string, publicClaims: PublicClaims, privateClaims: P): Promise<ServiceAccountInfo>;
}

/** k8s.io/apimachinery's aggregate error text: one message as is, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
function quoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/**
 * `hasCorrectIssuer`: whether the unverified payload of a three-part token is a JSON object whose
 * `iss` (as Go's decoder finds it) is one of `issuers`.
 */
function hasCorrectIssuer(token: string, issuers: ReadonlySet<string>): boolean {
  if (token.trim().startsWith('{')) return false;
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const payload = decodeBase64Url(parts[1]!, false);
  if (!payload) return false;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return false;
  }
  if (value === null) return issuers.has('');
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  const iss = goField(value as Record<string, unknown>, 'iss');
  if (iss === undefined || iss === null) return issuers.has('');
  return typeof iss === 'string' && issuers.has(iss);
}

/** One `jwtTokenAuthenticator`: its issuers and its validator. */
function jwtAuthenticator<P>(issuerList: readonly string[], options: ServiceAccountAuthenticatorOptions, validator: Validator<P>) {
  const issuers = new Set(issuerList);
  return async (token: string, requested: readonly string[] | undefined): Promise<AuthenticationResult | undefined> => {
    if (!hasCorrectIssuer(token, issuers)) return undefined;
    const jws = parseCompact(token);
    if (!jws) return undefined;
    const kid = typeof jws.header.kid === 'string' ? jws.header.kid : '';
    const keys = kid ? options.keys.filter((k) => k.kid === kid) : options.keys;
    if (keys.length === 0) throw new Error('invalid signature, no keys found');

    const errors: string[] = [];
    let decoded: { publicClaims: PublicClaims; privateClaims: P } | undefined;
    for (const key of keys) {
      if (!verifySignature(jws, key)) {
        errors.push(CRYPTO_FAILURE);
        continue;
      }
      const payload = parseJsonObject(jws.payload);
      if (!payload) {
        errors.push('json: cannot unmarshal payload into Go value of type jwt.Claims');
        continue;
      }
      try {
        decoded = { publicClaims: decodePublicClaims(payload), privateClaims: validator.decode(payload) };
        break;
      } catch (e) {
        if (!(e instanceof ClaimsDecodeError)) throw e;
        errors.push(e.message);
      }
    }
    if (!decoded) throw new Error(aggregateMessage(errors));
    const { publicClaims, privateClaims } = decoded;
    if (!issuers.has(publicClaims.iss)) throw new Error(`token issuer ${goQuote(publicClaims.iss)} is invalid`);

    const implicit = options.apiAudiences;
    const tokenAudiences = publicClaims.aud.length ? publicClaims.aud : implicit;
    const target = requested?.length ? requested : implicit;
    // Audiences.Intersect: the requested audiences the token has, in the requested order.
    const audiences = target.filter((a) => tokenAudiences.includes(a));
    if (audiences.length === 0 && implicit.length !== 0) {
      throw new Error(`token audiences ${quoteList(tokenAudiences)} is invalid for the target audiences ${quoteList(target)}`);
    }
    const info = await validator.validate(token, publicClaims, privateClaims);
    return { user: serviceAccountUser(info), audiences };
  };
}

/** Creates the service account token authenticator (legacy tokens, then bound tokens). */
export function createServiceAccountAuthenticator(options: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const legacy = jwtAuthenticator([LEGACY_ISSUER], options, {
    decode: decodeLegacyPrivateClaims,
    validate: (token, publicClaims, privateClaims) => validateLegacy(token, publicClaims, privateClaims, options.read),
  });
  const bound = jwtAuthenticator(options.issuers, options, {
    decode: decodeBoundPrivateClaims,
    validate: (_token, publicClaims, privateClaims) => validateBound(publicClaims, privateClaims, options.read, options.now()),
  });
  const chain = [legacy, bound];
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationResult | undefined> {
      const errors: string[] = [];
      for (const authenticate of chain) {
        try {
          const result = await authenticate(token, audiences);
          if (result) return result;
        } catch (e) {
          errors.push(e instanceof Error ? e.message : String(e));
        }
      }
      if (errors.length) throw new Error(aggregateMessage(errors));
      return undefined;
    },
  };
}
