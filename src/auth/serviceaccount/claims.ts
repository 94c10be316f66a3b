/**
 * The claims of service account tokens (kubernetes/kubernetes `pkg/serviceaccount/claims.go`
 * Claims and `legacy.go` LegacyClaims) and their decoding as Go's `encoding/json` decodes a
 * verified payload into go-jose's `jwt.Claims` and the private claims structs (field names matched
 * case-insensitively, the last matching key winning, `null` leaving a field unset; a value of the
 * wrong JSON type fails with Go's text).
 */

/** `serviceaccount.LegacyIssuer`: the `iss` of secret-based tokens. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** `apiserverserviceaccount.ServiceAccountUsernamePrefix`. */
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';

/** The legacy private claim names (`legacyPrivateClaims`). */
export const LEGACY_CLAIMS = {
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  namespace: 'kubernetes.io/serviceaccount/namespace',
} as const;

/** `MakeUsername`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

/** A `{name, uid}` reference of the `kubernetes.io` claim, empty members left out (`omitempty`). */
function ref(name: string, uid: string): Record<string, string> {
  return { ...(name ? { name } : {}), ...(uid ? { uid } : {}) };
}

/** What a bound token says (TokenRequest's, after defaults and capping). */
export interface BoundClaimsInput {
  readonly issuer: string;
  readonly namespace: string;
  readonly serviceAccount: { readonly name: string; readonly uid: string };
  readonly audiences: readonly string[];
  /** Seconds since the epoch. */
  readonly now: number;
  readonly expirationSeconds: number;
  /** Seconds after `now` past which a use is stale (the projected-token extension), 0 when none. */
  readonly warnAfterSeconds?: number;
  readonly jti: string;
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
  readonly node?: { readonly name: string; readonly uid: string };
}

/**
 * `Claims`: the registered claims (`sub`, `aud`, `iat`, `nbf`, `exp`, `jti`) and the private
 * `kubernetes.io` claim. A token is bound to one object: a pod (and then also the pod's node when
 * known), a secret, or a node.
 */
export function boundClaims(input: BoundClaimsInput): Record<string, unknown> {
  if (input.secret && (input.pod || input.node)) throw new Error('internal error, token can only be bound to one object type');
  const kubernetes: Record<string, unknown> = {
    ...(input.namespace ? { namespace: input.namespace } : {}),
    serviceaccount: ref(input.serviceAccount.name, input.serviceAccount.uid),
  };
  if (input.pod) {
    kubernetes.pod = ref(input.pod.name, input.pod.uid);
    if (input.node) kubernetes.node = ref(input.node.name, input.node.uid);
  } else if (input.secret) kubernetes.secret = ref(input.secret.name, input.secret.uid);
  else if (input.node) kubernetes.node = ref(input.node.name, input.node.uid);
  if (input.warnAfterSeconds) kubernetes.warnafter = input.now + input.warnAfterSeconds;
  return {
    iss: input.issuer,
    sub: serviceAccountUsername(input.namespace, input.serviceAccount.name),
    ...(input.audiences.length ? { aud: [...input.audiences] } : {}),
    iat: input.now,
    nbf: input.now,
    exp: input.now + input.expirationSeconds,
    jti: input.jti,
    'kubernetes.io': kubernetes,
  };
}

/** `LegacyClaims`: the claims of a `kubernetes.io/service-account-token` Secret's token (no expiry, no audience). */
export function legacyClaims(secret: {
  readonly namespace: string;
  readonly name: string;
  readonly serviceAccount: { readonly name: string; readonly uid: string };
}): Record<string, unknown> {
  return {
    iss: LEGACY_ISSUER,
    sub: serviceAccountUsername(secret.namespace, secret.serviceAccount.name),
    [LEGACY_CLAIMS.namespace]: secret.namespace,
    [LEGACY_CLAIMS.serviceAccountName]: secret.serviceAccount.name,
    [LEGACY_CLAIMS.serviceAccountUid]: secret.serviceAccount.uid,
    [LEGACY_CLAIMS.secretName]: secret.name,
  };
}

/** A decoding failure with Go's `json.UnmarshalTypeError` text (or go-jose's for its own types). */
export class ClaimsDecodeError extends Error {}

/** Go's simple case folding for ASCII letters, with the two non-ASCII runes that fold onto ASCII (`ſ`, `K`). */
function fold(s: string): string {
  return s
    .replace(/\u017f/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();
}

/**
 * The value Go's decoder puts in the struct field named `name`: the last key that matches it
 * exactly or case-insensitively (Go lets a later key overwrite an earlier one).
 */
export function goField(obj: Record<string, unknown>, name: string): unknown {
  let found: unknown;
  const folded = fold(name);
  for (const k of Object.keys(obj)) if (k === name || fold(k) === folded) found = obj[k];
  return found;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** A string field: `undefined` for absent or `null`. */
function stringField(obj: Record<string, unknown>, name: string, where: string): string | undefined {
  const v = goField(obj, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ClaimsDecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${where}.${name} of type string`);
  return v;
}

/** go-jose's `NumericDate`: any JSON number, truncated to whole seconds. */
function numericDate(obj: Record<string, unknown>, name: string): number | undefined {
  const v = goField(obj, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new ClaimsDecodeError('go-jose/go-jose/jwt: expected number value to unmarshal NumericDate');
  return Math.trunc(v);
}

/** go-jose's `Audience`: a string or an array of strings. */
function audience(obj: Record<string, unknown>): string[] | undefined {
  const v = goField(obj, 'aud');
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
  throw new ClaimsDecodeError('go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience');
}

/** go-jose's `jwt.Claims`, decoded from a verified payload. */
export interface PublicClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  readonly jti: string;
}

/** Decodes the registered claims; throws {@link ClaimsDecodeError}. */
export function decodePublicClaims(payload: Record<string, unknown>): PublicClaims {
  return {
    iss: stringField(payload, 'iss', 'Claims') ?? '',
    sub: stringField(payload, 'sub', 'Claims') ?? '',
    aud: audience(payload) ?? [],
    exp: numericDate(payload, 'exp'),
    nbf: numericDate(payload, 'nbf'),
    iat: numericDate(payload, 'iat'),
    jti: stringField(payload, 'jti', 'Claims') ?? '',
  };
}

/** A `{name, uid}` reference of the private claim. */
export interface ClaimRef {
  readonly name: string;
  readonly uid: string;
}

/** The private `kubernetes.io` claim (`privateClaims`). */
export interface BoundPrivateClaims {
  readonly namespace: string;
  readonly serviceAccount: ClaimRef;
  readonly pod?: ClaimRef;
  readonly secret?: ClaimRef;
  readonly node?: ClaimRef;
  readonly warnAfter?: number;
}

function objectField(obj: Record<string, unknown>, name: string, where: string): Record<string, unknown> | undefined {
  const v = goField(obj, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw new ClaimsDecodeError(
      `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${where}.${name} of type serviceaccount.${where.endsWith('.io') ? 'ref' : 'kubernetes'}`,
    );
  }
  return v as Record<string, unknown>;
}

function claimRef(obj: Record<string, unknown> | undefined, where: string): ClaimRef | undefined {
  if (!obj) return undefined;
  return { name: stringField(obj, 'name', where) ?? '', uid: stringField(obj, 'uid', where) ?? '' };
}

/** Decodes the `kubernetes.io` claim; throws {@link ClaimsDecodeError}. */
export function decodeBoundPrivateClaims(payload: Record<string, unknown>): BoundPrivateClaims {
  const k = objectField(payload, 'kubernetes.io', 'privateClaims') ?? {};
  const where = 'privateClaims.kubernetes.io';
  return {
    namespace: stringField(k, 'namespace', where) ?? '',
    serviceAccount: claimRef(objectField(k, 'serviceaccount', where), `${where}.serviceaccount`) ?? { name: '', uid: '' },
    pod: claimRef(objectField(k, 'pod', where), `${where}.pod`),
    secret: claimRef(objectField(k, 'secret', where), `${where}.secret`),
    node: claimRef(objectField(k, 'node', where), `${where}.node`),
    warnAfter: numericDate(k, 'warnafter'),
  };
}

/** The legacy private claims (`legacyPrivateClaims`). */
export interface LegacyPrivateClaims {
  readonly namespace: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUid: string;
  readonly secretName: string;
}

/** Decodes the legacy private claims; throws {@link ClaimsDecodeError}. */
export function decodeLegacyPrivateClaims(payload: Record<string, unknown>): LegacyPrivateClaims {
  const where = 'legacyPrivateClaims';
  return {
    namespace: stringField(payload, LEGACY_CLAIMS.namespace, where) ?? '',
    serviceAccountName: stringField(payload, LEGACY_CLAIMS.serviceAccountName, where) ?? '',
    serviceAccountUid: stringField(payload, LEGACY_CLAIMS.serviceAccountUid, where) ?? '',
    secretName: stringField(payload, LEGACY_CLAIMS.secretName, where) ?? '',
  };
}
