/**
 * kube-apiserver's service account flags, checked with its messages
 * (`pkg/kubeapiserver/options/authentication.go` BuiltInAuthenticationOptions.Validate and
 * `pkg/controlplane/apiserver/options` completeServiceAccountOptions), and the cluster's service
 * account setup built from them: the issuer, the authenticator's keys and the discovery inputs.
 */
import { goQuote } from '../../util/go-format.js';
import { goParseURL } from '../../util/go-url.js';
import { generateSigningKey, parseSigningKey, parseVerificationKeys, type SigningKey, type VerificationKey } from './keys.js';

/** The issuer of a cluster that names none (what kind and kubeadm clusters use). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The bounds of `--service-account-max-token-expiration`: an hour to 2^32 seconds. */
export const MIN_MAX_TOKEN_EXPIRATION_SECONDS = 60 * 60;
export const MAX_MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

/** The service account flags, as given (PEM texts instead of file names). */
export interface ServiceAccountFlags {
  /** `--service-account-issuer`, in order (repeatable). */
  readonly issuers?: readonly string[];
  /** `--service-account-signing-key-file`: a PEM private key. */
  readonly signingKey?: string;
  /** `--service-account-key-file`: PEM texts (repeatable), each with one or more keys. */
  readonly keys?: readonly string[];
  /** `--api-audiences`. */
  readonly apiAudiences?: readonly string[];
  /** `--service-account-max-token-expiration`, in seconds; 0 or absent for none. */
  readonly maxTokenExpirationSeconds?: number;
  /** `--service-account-jwks-uri`. */
  readonly jwksUri?: string;
  /** `--service-account-extend-token-expiration` (default true). */
  readonly extendTokenExpiration?: boolean;
}

/**
 * The errors kube-apiserver reports for these flags, in its order (empty when they are fine). Keys
 * are checked by {@link resolveServiceAccounts}, which reads them. Unlike kube-apiserver, a missing
 * issuer or key file is no error: memkube then uses {@link DEFAULT_ISSUER} and a generated key.
 */
export function validateServiceAccountFlags(flags: ServiceAccountFlags): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of flags.issuers ?? []) {
    if (issuer.includes(':')) {
      const parsed = goParseURL(issuer);
      if (!parsed.ok) {
        errors.push(`service-account-issuer ${goQuote(issuer)} contained a ':' but was not a valid URL: ${parsed.error}`);
        continue;
      }
    }
    if (issuer === '') {
      errors.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      errors.push(`service-account-issuer ${goQuote(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (flags.signingKey !== undefined && !flags.keys?.length) errors.push('service-account-key-file is a required flag');
  if (flags.jwksUri) {
    const parsed = goParseURL(flags.jwksUri);
    if (!parsed.ok) errors.push(`service-account-jwks-uri must be a valid URL: ${parsed.error}`);
    else if (parsed.url.scheme !== 'https') errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${flags.jwksUri}`);
  }
  const max = flags.maxTokenExpirationSeconds ?? 0;
  if (max !== 0 && !(max >= MIN_MAX_TOKEN_EXPIRATION_SECONDS && max <= MAX_MAX_TOKEN_EXPIRATION_SECONDS)) {
    errors.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  return errors;
}

/** A cluster's service account setup, resolved from its flags. */
export interface ServiceAccountSetup {
  readonly issuers: readonly string[];
  readonly signingKey: SigningKey;
  readonly verificationKeys: readonly VerificationKey[];
  readonly apiAudiences: readonly string[];
  readonly maxExpirationSeconds: number;
  readonly extendExpiration: boolean;
  readonly jwksUri?: string;
}

/** Why the flags cannot be used: every message, as kube-apiserver would refuse to start with them. */
export class ServiceAccountOptionsError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.join('; '));
    this.name = 'ServiceAccountOptionsError';
  }
}

/**
 * Checks the flags and reads the keys: the signing key (`failed to parse service-account-issuer-key-file: ...`),
 * each key text (`failed to parse service-account-key-file #<n>: ...`). Without a signing key a
 * fresh ECDSA P-256 key signs; without key texts the signing key's public half verifies. Throws a
 * {@link ServiceAccountOptionsError}.
 */
export function resolveServiceAccounts(flags: ServiceAccountFlags = {}): ServiceAccountSetup {
  const errors = validateServiceAccountFlags(flags);
  let signingKey: SigningKey | undefined;
  if (flags.signingKey !== undefined) {
    try {
      signingKey = parseSigningKey(flags.signingKey);
    } catch (e) {
      errors.push(`failed to parse service-account-issuer-key-file: ${(e as Error).message}`);
    }
  }
  const verificationKeys: VerificationKey[] = [];
  (flags.keys ?? []).forEach((pem, i) => {
    try {
      verificationKeys.push(...parseVerificationKeys(pem));
    } catch (e) {
      errors.push(`failed to parse service-account-key-file #${i + 1}: ${(e as Error).message}`);
    }
  });
  if (errors.length) throw new ServiceAccountOptionsError(errors);
  signingKey ??= generateSigningKey();
  const issuers = flags.issuers?.length ? [...flags.issuers] : [DEFAULT_ISSUER];
  return {
    issuers,
    signingKey,
    verificationKeys: verificationKeys.length ? verificationKeys : [signingKey],
    apiAudiences: flags.apiAudiences?.length ? [...flags.apiAudiences] : issuers,
    maxExpirationSeconds: flags.maxTokenExpirationSeconds ?? 0,
    extendExpiration: flags.extendTokenExpiration ?? true,
    ...(flags.jwksUri ? { jwksUri: flags.jwksUri } : {}),
  };
}
