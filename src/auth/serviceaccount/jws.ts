/**
 * Compact JWS as kube-apiserver's service account tokens use it (go-jose v2): signing a claims map
 * (its JSON keys sorted, as Go marshals a map; header `{"alg":...,"kid":...}`), and the parse and
 * signature check of `jwt.ParseSigned` + `JSONWebToken.Claims`. Anything malformed answers
 * `undefined` or a refusal with go-jose's text; nothing here throws on hostile input.
 */
import { sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { compareGoStrings, goJson } from '../../util/go-format.js';
import type { SigningAlgorithm, SigningKey, VerificationKey } from './keys.js';

/** go-jose's error when a signature does not verify with a key (whatever the reason). */
export const CRYPTO_FAILURE = 'go-jose/go-jose: error in cryptographic primitive';

const HASHES: Readonly<Record<string, string>> = {
  RS256: 'sha256',
  RS384: 'sha384',
  RS512: 'sha512',
  PS256: 'sha256',
  PS384: 'sha384',
  PS512: 'sha512',
  ES256: 'sha256',
  ES384: 'sha384',
  ES512: 'sha512',
};

/** A JSON value with every object's keys in Go's (byte-wise) order, as `json.Marshal` of a map writes them. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort(compareGoStrings)) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sorted(v);
  }
  return out;
}

function signingInput(header: unknown, payload: unknown): string {
  const part = (v: unknown) => Buffer.from(goJson(sorted(v)), 'utf8').toString('base64url');
  return `${part(header)}.${part(payload)}`;
}

function signatureOptions(alg: SigningAlgorithm | string, key: KeyObject) {
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' as const };
  if (alg.startsWith('PS')) return { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: -1 /* RSA_PSS_SALTLEN_DIGEST */ };
  return { key };
}

/** Signs `claims` with `key`: the compact serialization `header.payload.signature`. */
export function signCompact(claims: Record<string, unknown>, key: SigningKey): string {
  const input = signingInput({ alg: key.alg, kid: key.kid }, claims);
  const signature = cryptoSign(HASHES[key.alg]!, Buffer.from(input, 'ascii'), signatureOptions(key.alg, key.privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

/** A compact JWS split and decoded, not yet verified. */
export interface ParsedJws {
  readonly header: Record<string, unknown>;
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
  /** `header.payload` as sent: what the signature covers. */
  readonly signingInput: string;
}

/**
 * Go's `base64.RawURLEncoding.DecodeString` after go-jose trims trailing `=`: undefined for any
 * character outside the URL alphabet, a length that cannot be base64, or non-zero trailing bits.
 */
export function decodeBase64Url(text: string, trimPadding: boolean): Uint8Array | undefined {
  const s = trimPadding ? text.replace(/=+$/, '') : text;
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  const bytes = Buffer.from(s, 'base64url');
  // Strict decoding: the bytes must encode back to the same text (no stray bits in the last character).
  if (bytes.toString('base64url') !== s) return undefined;
  return new Uint8Array(bytes);
}

/** A plain JSON object, or undefined when `bytes` are not one (Go then fails to unmarshal into a struct). */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * `jose.ParseSigned` of the compact form: three parts, each valid base64url, a JSON object as
 * protected header. Undefined when the token is not a compact JWS.
 */
export function parseCompact(token: string): ParsedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const headerBytes = decodeBase64Url(parts[0]!, true);
  const payload = decodeBase64Url(parts[1]!, true);
  const signature = decodeBase64Url(parts[2]!, true);
  if (!headerBytes || !payload || !signature) return undefined;
  const header = parseJsonObject(headerBytes);
  if (!header) return undefined;
  return { header, payload, signature, signingInput: `${parts[0]}.${parts[1]}` };
}

/** The algorithms a key of this kind verifies with go-jose: any RSA one for RSA, the curve's own for ECDSA. */
function keyAccepts(key: VerificationKey, alg: unknown): alg is string {
  if (typeof alg !== 'string') return false;
  if (key.alg === 'RS256') return /^(RS|PS)(256|384|512)$/.test(alg);
  return alg === key.alg;
}

/**
 * `JSONWebSignature.Verify`: whether the signature verifies with `key`. A critical header, an
 * algorithm the key does not do (`none` included) or a bad signature all fail alike, as go-jose
 * answers every one of them with {@link CRYPTO_FAILURE}.
 */
export function verifySignature(jws: ParsedJws, key: VerificationKey): boolean {
  const alg = jws.header.alg;
  if (jws.header.crit !== undefined || !keyAccepts(key, alg)) return false;
  try {
    return cryptoVerify(HASHES[alg]!, Buffer.from(jws.signingInput, 'ascii'), signatureOptions(alg, key.publicKey), jws.signature);
  } catch {
    return false;
  }
}
