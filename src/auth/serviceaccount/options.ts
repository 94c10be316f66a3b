/**
 * kube-apiserver's service account flags, checked with its messages
 * (`pkg/kubeapiserver/options/authentication.go` BuiltInAuthenticationOptions.Validate and
 * `pkg/controlplane/apiserver/options` completeServiceAccountOptions), and the cluster's service
 * account setup built from them: the issuer, the authenticator's keys and the discovery inputs.
 */
import { goReadFile } from '../../config/go-read-file.js';
import { goQuote } from '../../util/go-format.js';
import { goParseURL } from '../../util/go-url.js';
import { generateSigningKey, parseSigningKey, parseVerificationKeys, UnsupportedSigningKeyError, type SigningKey, type VerificationKey } from './keys.js';

/** The issuer of a cluster that names none (what kind and kubeadm clusters use). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The bounds of `--service-account-max-token-expiration`: an hour to 2^32 seconds. */
export const MIN_MAX_TOKEN_EXPIRATION_SECONDS = 60 * 60;
export const MAX_MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

/**
 * The service account flags, as given (PEM texts instead of file names).
 * @category Authentication and authorization
 */
export interface ServiceAccountFlags {
  /** `--service-account-issuer`, in order (repeatable). */
  readonly issuers?: readonly string[];
  /** `--service-account-signing-key-file`: a PEM private key. */
  readonly signingKey?: string;
  /** `--service-account-signing-key-file` by name, read when {@link signingKey} is not given. */
  readonly signingKeyFile?: string;
  /** `--service-account-key-file`: PEM texts (repeatable), each with one or more keys. */
  readonly keys?: readonly string[];
  /** `--service-account-key-file` by name (repeatable), read after {@link keys}. */
  readonly keyFiles?: readonly string[];
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
 * The errors kube-apiserver reports for these flags, in its order (empty when they are fine): the
 * maximum expiration (checked as options are completed), then the other flags (as they are
 * validated). Keys are checked by {@link resolveServiceAccounts}, which reads them. Unlike kube-apiserver, a missing
 * issuer or key file is no error: memkube then uses {@link DEFAULT_ISSUER} and a generated key.
 */
export function validateServiceAccountFlags(flags: ServiceAccountFlags): string[] {
  const max = maxExpirationError(flags);
  return [...(max ? [max] : []), ...optionErrors(flags)];
}

/** BuiltInAuthenticationOptions.Validate's service account checks. */
function optionErrors(flags: ServiceAccountFlags): string[] {
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
  // BuiltInAuthenticationOptions.Validate asks for verifying keys whenever service accounts are on;
  // memkube asks only when a signing key is given (otherwise the generated key verifies).
  const signs = flags.signingKey !== undefined || flags.signingKeyFile !== undefined;
  if (signs && !flags.keys?.length && !flags.keyFiles?.length) {
    errors.push('either `--service-account-key-file` or `--service-account-signing-endpoint` must be set');
  }
  if (flags.jwksUri) {
    const parsed = goParseURL(flags.jwksUri);
    if (!parsed.ok) errors.push(`service-account-jwks-uri must be a valid URL: ${parsed.error}`);
    else if (parsed.url.scheme !== 'https') errors.push(`service-account-jwks-uri requires https scheme, parsed as: ${flags.jwksUri}`);
  }
  return errors;
}

/** completeServiceAccountOptions' check of `--service-account-max-token-expiration`, or undefined. */
function maxExpirationError(flags: ServiceAccountFlags): string | undefined {
  const max = flags.maxTokenExpirationSeconds ?? 0;
  if (max !== 0 && !(max >= MIN_MAX_TOKEN_EXPIRATION_SECONDS && max <= MAX_MAX_TOKEN_EXPIRATION_SECONDS)) {
    return 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds';
  }
  return undefined;
}

/**
 * A cluster's service account setup, resolved from its flags.
 * @category Authentication and authorization
 */
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
 * Checks the flags and reads the keys, failing in kube-apiserver's stages (each throws a
 * {@link ServiceAccountOptionsError}): completing the options stops at the first of the maximum
 * expiration and the signing key (`failed to parse service-account-issuer-key-file: ...`); validating
 * them reports every bad flag; building the authenticator stops at the first verifying key that
 * cannot be read. A key text given inline (not by file) is named by its position
 * (`failed to parse service-account-key-file #<n>: ...`). Without a signing key a fresh ECDSA P-256
 * key signs; without verifying keys the signing key's public half verifies.
 */
export function resolveServiceAccounts(flags: ServiceAccountFlags = {}): ServiceAccountSetup {
  const max = maxExpirationError(flags);
  if (max) throw new ServiceAccountOptionsError([max]);
  let signingKey: SigningKey | undefined;
  if (flags.signingKey !== undefined || flags.signingKeyFile !== undefined) {
    signingKey = signingKeyOf(flags);
  }
  const errors = optionErrors(flags);
  if (errors.length) throw new ServiceAccountOptionsError(errors);
  const verificationKeys: VerificationKey[] = [];
  (flags.keys ?? []).forEach((pem, i) => {
    try {
      verificationKeys.push(...parseVerificationKeys(pem));
    } catch (e) {
      throw new ServiceAccountOptionsError([`failed to parse service-account-key-file #${i + 1}: ${(e as Error).message}`]);
    }
  });
  for (const file of flags.keyFiles ?? []) {
    const read = goReadFile(file);
    if (!read.ok) throw new ServiceAccountOptionsError([read.error]);
    try {
      verificationKeys.push(...parseVerificationKeys(read.data.toString('utf8')));
    } catch (e) {
      throw new ServiceAccountOptionsError([`error reading public key file ${file}: ${(e as Error).message}`]);
    }
  }
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

/**
 * The signing key, as completeServiceAccountOptions reads it: `keyutil.PrivateKeyFromFile`'s errors
 * (the read error bare, a parse error naming the file) behind `failed to parse
 * service-account-issuer-key-file: `, and a key of a type that cannot sign behind JWTTokenGenerator's
 * `failed to build token generator: `.
 */
function signingKeyOf(flags: ServiceAccountFlags): SigningKey {
  const file = flags.signingKeyFile;
  let pem = flags.signingKey;
  if (pem === undefined && file !== undefined) {
    const read = goReadFile(file);
    if (!read.ok) throw new ServiceAccountOptionsError([`failed to parse service-account-issuer-key-file: ${read.error}`]);
    pem = read.data.toString('utf8');
  }
  try {
    return parseSigningKey(pem ?? '');
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof UnsupportedSigningKeyError) throw new ServiceAccountOptionsError([`failed to build token generator: ${message}`]);
    const why = file !== undefined && flags.signingKey === undefined ? `error reading private key file ${file}: ${message}` : message;
    throw new ServiceAccountOptionsError([`failed to parse service-account-issuer-key-file: ${why}`]);
  }
}
