/**
 * The keys of service account tokens, read as kube-apiserver reads its flags:
 * `--service-account-signing-key-file` with client-go's `keyutil.ParsePrivateKeyPEM` (the first
 * PKCS#1, SEC 1 or PKCS#8 block that parses), `--service-account-key-file` with
 * `keyutil.ParsePublicKeysPEM` (every block that is an RSA or ECDSA private key, public key or
 * certificate, whatever its PEM type). A key's `kid` is `pkg/serviceaccount/jwt.go`
 * keyIDFromPublicKey: the unpadded base64url SHA-256 of its PKIX (SubjectPublicKeyInfo) DER; its
 * algorithm is RS256 for RSA and ES256/ES384/ES512 by the ECDSA curve.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { pemDecode } from '../../pki/x509.js';

/**
 * The JWS algorithms service account tokens are signed with.
 * @category Authentication and authorization
 */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/**
 * A key that verifies tokens.
 * @category Authentication and authorization
 */
export interface VerificationKey {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly publicKey: KeyObject;
}

/**
 * The key that signs tokens, with its public half.
 * @category Authentication and authorization
 */
export interface SigningKey extends VerificationKey {
  readonly privateKey: KeyObject;
}

/** client-go's message when no block of a signing key file is a usable private key. */
export const NO_PRIVATE_KEY = 'data does not contain a valid RSA or ECDSA private key';
/** client-go's message when no block of a key file is a usable public key. */
export const NO_PUBLIC_KEYS = 'data does not contain any valid RSA or ECDSA public keys';

const CURVE_ALGORITHMS: Readonly<Record<string, SigningAlgorithm>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

/**
 * Go's crypto/x509 refuses RSA keys below 1024 bits (Go 1.24 and later), so such a block is skipped
 * as a block that does not parse.
 */
const MIN_RSA_BITS = 1024;

/** The algorithm of a usable key, or undefined for a key Go's parsers refuse (other curves, Ed25519, RSA-PSS, small RSA). */
function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa') return (details?.modulusLength ?? 0) >= MIN_RSA_BITS ? 'RS256' : undefined;
  if (key.asymmetricKeyType === 'ec') return CURVE_ALGORITHMS[details?.namedCurve ?? ''];
  return undefined;
}

/** `keyIDFromPublicKey`: unpadded base64url of the SHA-256 of the key's PKIX DER. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** The length of a DER TLV's header and its content length at `at`, or undefined when malformed. */
function tlv(der: Uint8Array, at: number): { header: number; length: number } | undefined {
  if (at + 2 > der.length) return undefined;
  const first = der[at + 1]!;
  if (first < 0x80) return { header: 2, length: first };
  const n = first & 0x7f;
  if (n === 0 || n > 4 || at + 2 + n > der.length) return undefined;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + der[at + 2 + i]!;
  return { header: 2 + n, length };
}

/**
 * The tag of the second element of the outer SEQUENCE: what tells the formats apart (PKCS#1 has
 * INTEGER, SEC 1 OCTET STRING, PKCS#8 the algorithm SEQUENCE). OpenSSL reads one format for another
 * where Go's parsers do not, so the format is checked first.
 */
function secondElementTag(der: Uint8Array): number | undefined {
  if (der[0] !== 0x30) return undefined;
  const outer = tlv(der, 0);
  if (!outer) return undefined;
  const firstAt = outer.header;
  const first = tlv(der, firstAt);
  if (!first) return undefined;
  return der[firstAt + first.header + first.length];
}

const SECOND_TAG = { pkcs1: 0x02, sec1: 0x04, pkcs8: 0x30 } as const;

function tryPrivate(der: Uint8Array, type: 'pkcs1' | 'sec1' | 'pkcs8'): KeyObject | undefined {
  if (secondElementTag(der) !== SECOND_TAG[type]) return undefined;
  try {
    return createPrivateKey({ key: Buffer.from(der), format: 'der', type });
  } catch {
    return undefined;
  }
}

function tryPublic(der: Uint8Array): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

function tryCertificateKey(der: Uint8Array): KeyObject | undefined {
  try {
    return new X509Certificate(Buffer.from(der)).publicKey;
  } catch {
    return undefined;
  }
}

/** Every PEM block of `pem`, in order, as Go's `pem.Decode` finds them. */
function* pemBlocks(pem: string): Generator<{ type: string; bytes: Uint8Array }> {
  let rest = pem;
  for (;;) {
    const [block, after] = pemDecode(rest);
    if (!block) return;
    yield block;
    rest = after;
  }
}

function withKid(privateKey: KeyObject, alg: SigningAlgorithm): SigningKey {
  const publicKey = createPublicKey(privateKey);
  return { kid: keyIdOf(publicKey), alg, publicKey, privateKey };
}

/** A private key that parses but cannot sign tokens (JWTTokenGenerator refuses its type, after it is read). */
export class UnsupportedSigningKeyError extends Error {
  override name = 'UnsupportedSigningKeyError';
}

/**
 * `keyutil.ParsePrivateKeyPEM`: the first block that is an `EC PRIVATE KEY` (SEC 1), an
 * `RSA PRIVATE KEY` (PKCS#1) or a `PRIVATE KEY` (PKCS#8) and parses; other blocks (such as
 * `EC PARAMETERS`) are skipped. Throws {@link NO_PRIVATE_KEY} when there is none. A PKCS#8 key of
 * another type (Ed25519) is refused with JWTTokenGenerator's message.
 */
export function parseSigningKey(pem: string): SigningKey {
  for (const block of pemBlocks(pem)) {
    const type = block.type === 'EC PRIVATE KEY' ? 'sec1' : block.type === 'RSA PRIVATE KEY' ? 'pkcs1' : block.type === 'PRIVATE KEY' ? 'pkcs8' : undefined;
    if (!type) continue;
    const key = tryPrivate(block.bytes, type);
    if (!key) continue;
    const alg = algorithmOf(key);
    if (alg) return withKid(key, alg);
    // Go parses an Ed25519 or X25519 PKCS#8 key, then JWTTokenGenerator refuses its type.
    if (type === 'pkcs8' && (key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'x25519')) {
      const goType = key.asymmetricKeyType === 'ed25519' ? 'ed25519.PrivateKey' : '*ecdh.PrivateKey';
      throw new UnsupportedSigningKeyError(`unknown private key type ${goType}, must be *rsa.PrivateKey, *ecdsa.PrivateKey, or jose.OpaqueSigner`);
    }
  }
  throw new Error(NO_PRIVATE_KEY);
}

/**
 * `keyutil.ParsePublicKeysPEM`: the public key of every block that is, whatever its PEM type, an
 * RSA private key (PKCS#1 or PKCS#8), an RSA public key (PKIX) or certificate, an ECDSA private key
 * (SEC 1 only, as client-go reads it) or an ECDSA public key (PKIX) or certificate. Blocks that are
 * none of these are skipped; throws {@link NO_PUBLIC_KEYS} when no block is a key.
 */
export function parseVerificationKeys(pem: string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  const add = (publicKey: KeyObject, alg: SigningAlgorithm) => keys.push({ kid: keyIdOf(publicKey), alg, publicKey });
  for (const block of pemBlocks(pem)) {
    const der = block.bytes;
    const rsaPrivate = tryPrivate(der, 'pkcs1') ?? tryPrivate(der, 'pkcs8');
    if (rsaPrivate?.asymmetricKeyType === 'rsa' && algorithmOf(rsaPrivate)) {
      add(createPublicKey(rsaPrivate), 'RS256');
      continue;
    }
    const pub = tryPublic(der) ?? tryCertificateKey(der);
    if (pub?.asymmetricKeyType === 'rsa' && algorithmOf(pub)) {
      add(pub, 'RS256');
      continue;
    }
    const ecPrivate = tryPrivate(der, 'sec1');
    const ecPrivateAlg = ecPrivate && algorithmOf(ecPrivate);
    if (ecPrivate && ecPrivateAlg) {
      add(createPublicKey(ecPrivate), ecPrivateAlg);
      continue;
    }
    const ecAlg = pub?.asymmetricKeyType === 'ec' ? algorithmOf(pub) : undefined;
    if (pub && ecAlg) add(pub, ecAlg);
  }
  if (keys.length === 0) throw new Error(NO_PUBLIC_KEYS);
  return keys;
}

/** A fresh ECDSA P-256 signing key, for a cluster given none (quick to make, unlike RSA). */
export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return withKid(privateKey, 'ES256');
}
