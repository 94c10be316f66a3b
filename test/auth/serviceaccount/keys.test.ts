import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigningKey, NO_PRIVATE_KEY, NO_PUBLIC_KEYS, parseSigningKey, parseVerificationKeys } from '../../../src/auth/serviceaccount/index.js';

/** Keys made with `openssl genrsa`, `openssl ecparam -genkey`, `openssl pkey` and `openssl req -x509`. */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

/**
 * The key IDs of the fixtures, computed outside this code with
 * `openssl pkey -pubout -outform DER | openssl dgst -sha256 -binary | base64url` (no padding).
 */
const KID = {
  rsa: '1TA7vcsATcav6KV3UCinz40payYmhK49oBpiySeCVms',
  p256: 'S2jGJv8d9x_1dG1W5ewc4Xkn5Yi7poJRvkr09mWG3Gk',
  p384: 'efm5Nz9PLSTlBCRUUl3jLwMMHJe1X0tj47DbVR7Gcjc',
  p521: '3Iqqk7IUOHKK9s4LKkTy29rAyPInKxZf57er55zexJU',
};

describe('--service-account-signing-key-file', () => {
  it.each([
    ['rsa-pkcs1.pem', 'RS256', KID.rsa],
    ['rsa-pkcs8.pem', 'RS256', KID.rsa],
    ['ec-p256.pem', 'ES256', KID.p256],
    ['ec-p256-pkcs8.pem', 'ES256', KID.p256],
    ['ec-p384.pem', 'ES384', KID.p384],
    ['ec-p521.pem', 'ES512', KID.p521],
  ])('%s signs with %s, its kid the SHA-256 of its PKIX public key', (file, alg, kid) => {
    const key = parseSigningKey(fixture(file));
    expect(key.alg).toBe(alg);
    expect(key.kid).toBe(kid);
  });

  it('skips blocks that are not keys (EC PARAMETERS before the key)', () => {
    const params = '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n';
    expect(parseSigningKey(params + fixture('ec-p256.pem')).kid).toBe(KID.p256);
  });

  it.each([
    ['a public key', fixture('rsa-public.pem')],
    ['a certificate', fixture('rsa-certificate.pem')],
    ['an unsupported curve (secp256k1)', fixture('ec-secp256k1.pem')],
    ['an RSA key under 1024 bits', fixture('rsa-512.pem')],
    ['no PEM at all', 'not a key'],
    ['an empty text', ''],
    ['a PKCS#1 block holding EC bytes', fixture('ec-p256.pem').replaceAll('EC PRIVATE KEY', 'RSA PRIVATE KEY')],
  ])('refuses %s: client-go’s message', (_what, pem) => {
    expect(() => parseSigningKey(pem)).toThrow(NO_PRIVATE_KEY);
    expect(NO_PRIVATE_KEY).toBe('data does not contain a valid RSA or ECDSA private key');
  });

  it('refuses an Ed25519 key with JWTTokenGenerator’s message', () => {
    expect(() => parseSigningKey(fixture('ed25519.pem'))).toThrow(
      'unknown private key type ed25519.PrivateKey, must be *rsa.PrivateKey, *ecdsa.PrivateKey, or jose.OpaqueSigner',
    );
  });

  it('generates an ECDSA P-256 key when none is given', () => {
    const a = generateSigningKey();
    const b = generateSigningKey();
    expect(a.alg).toBe('ES256');
    expect(a.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.kid).not.toBe(b.kid);
  });
});

describe('--service-account-key-file', () => {
  it('reads every key of a file, whatever its PEM type: private keys, public keys, certificates', () => {
    const text = [
      fixture('rsa-pkcs1.pem'),
      fixture('ec-p256-public.pem'),
      fixture('rsa-certificate.pem'),
      fixture('ec-p384.pem'),
      fixture('rsa-pkcs8.pem'),
    ].join('');
    expect(parseVerificationKeys(text).map((k) => [k.kid, k.alg])).toEqual([
      [KID.rsa, 'RS256'],
      [KID.p256, 'ES256'],
      [KID.rsa, 'RS256'],
      [KID.p384, 'ES384'],
      [KID.rsa, 'RS256'],
    ]);
    expect(parseVerificationKeys(fixture('rsa-public.pem').replaceAll('PUBLIC KEY', 'SOMETHING ELSE'))[0]!.kid).toBe(KID.rsa);
  });

  it('skips an ECDSA private key in PKCS#8, as client-go reads EC private keys in SEC 1 only', () => {
    expect(() => parseVerificationKeys(fixture('ec-p256-pkcs8.pem'))).toThrow(NO_PUBLIC_KEYS);
    expect(parseVerificationKeys(fixture('ec-p256-pkcs8.pem') + fixture('ec-p521.pem')).map((k) => k.kid)).toEqual([KID.p521]);
  });

  it.each([
    ['no PEM', 'hello'],
    ['an Ed25519 key', fixture('ed25519.pem')],
    ['a secp256k1 key', fixture('ec-secp256k1.pem')],
    ['garbage in a PEM block', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'],
  ])('refuses %s: client-go’s message', (_what, pem) => {
    expect(() => parseVerificationKeys(pem)).toThrow('data does not contain any valid RSA or ECDSA public keys');
  });
});
