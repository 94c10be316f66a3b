/**
 * The OIDC discovery documents of the service account issuer (kubernetes/kubernetes
 * `pkg/serviceaccount/openidmetadata.go`): `/.well-known/openid-configuration` and
 * `/openid/v1/jwks`. Pure functions: the caller serves them (with `Cache-Control: public,
 * max-age=3600`, the static key getter's cache age).
 */
import { compareGoStrings } from '../../util/go-format.js';
import { goParseURL } from '../../util/go-url.js';
import type { VerificationKey } from './keys.js';

/** `OpenIDConfigPath`. */
export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
/** `JWKSPath`. */
export const JWKS_PATH = '/openid/v1/jwks';
/** How long the documents may be cached, in seconds (`GetCacheAgeMaxSeconds` of static keys). */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;

/**
 * The provider metadata, in the field order kube-apiserver writes.
 * @category Authentication and authorization
 */
export interface OpenIDConfiguration {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
}

/**
 * One public key as go-jose writes a JSON Web Key (`use`, `kty`, `kid`, `crv`, `alg`, then the key's numbers).
 * @category Authentication and authorization
 */
export type PublicJwk = Record<string, string>;

/**
 * The key set document.
 * @category Authentication and authorization
 */
export interface JsonWebKeySet {
  keys: PublicJwk[];
}

/** The public JWK of a verification key. */
export function publicJwk(key: VerificationKey): PublicJwk {
  const jwk = key.publicKey.export({ format: 'jwk' }) as Record<string, string>;
  if (jwk.kty === 'RSA') return { use: 'sig', kty: 'RSA', kid: key.kid, alg: key.alg, n: jwk.n!, e: jwk.e! };
  return { use: 'sig', kty: 'EC', kid: key.kid, crv: jwk.crv!, alg: key.alg, x: jwk.x!, y: jwk.y! };
}

/** `/openid/v1/jwks`: every verification key. */
export function jsonWebKeySet(keys: readonly VerificationKey[]): JsonWebKeySet {
  return { keys: keys.map(publicJwk) };
}

/** Where the discovery document points for keys. */
export interface DiscoveryOptions {
  /** The first `--service-account-issuer`. */
  readonly issuer: string;
  /** `--service-account-jwks-uri`, when set. */
  readonly jwksUri?: string;
  /** The server's external address (`host:port`), from which the JWKS URI is built otherwise. */
  readonly externalAddress?: string;
  readonly keys: readonly VerificationKey[];
}

/**
 * `NewOpenIDMetadataProvider` + `openIDConfigJSON`: the discovery document, or the reason kube-apiserver
 * gives for not serving one (an issuer that is not an https URL without query and fragment, no
 * way to build the JWKS URI, no keys).
 */
export function openIDConfiguration(options: DiscoveryOptions): { ok: true; document: OpenIDConfiguration } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error });
  const { issuer } = options;
  if (issuer === '') return fail('empty issuer URL');
  const jwksOption = options.jwksUri ?? '';
  const address = options.externalAddress ?? '';
  if (jwksOption === '' && address === '') return fail('either the JWKS URI or the default external address, or both, must be set');
  const iss = goParseURL(issuer);
  if (!iss.ok) return fail(iss.error);
  if (iss.url.scheme !== 'https') return fail(`issuer URL must use https scheme, got: ${issuer}`);
  if (iss.url.rawQuery !== '') return fail(`issuer URL may not include a query, got: ${issuer}`);
  if (iss.url.fragment !== '') return fail(`issuer URL may not include a fragment, got: ${issuer}`);
  let jwksUri = jwksOption;
  if (jwksUri === '') {
    jwksUri = `https://${address}${JWKS_PATH}`;
    const parsed = goParseURL(jwksUri);
    const msg = (why: string) => `attempted to build jwks_uri from external address ${address}, but could not construct a valid URL. Error: ${why}`;
    if (!parsed.ok) return fail(msg(parsed.error));
    if (parsed.url.scheme !== 'https' || parsed.url.host !== address || parsed.url.path !== JWKS_PATH) {
      return fail(msg(`got ${jwksUri}, expected ${jwksUri}`));
    }
  } else {
    const parsed = goParseURL(jwksUri);
    if (!parsed.ok) return fail(parsed.error);
    if (parsed.url.scheme !== 'https') return fail(`jwksURI requires https scheme, parsed as: ${jwksUri}`);
  }
  if (options.keys.length === 0) return fail('no keys provided for validating keyset');
  const algs = [...new Set(options.keys.map((k) => k.alg))].sort(compareGoStrings);
  return {
    ok: true,
    document: {
      issuer,
      jwks_uri: jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: algs,
    },
  };
}
