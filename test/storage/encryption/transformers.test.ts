import { cbc, gcm } from '@noble/ciphers/aes.js';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aesCbcTransformer, aesGcmTransformer } from '../../../src/storage/encryption/aes.js';
import { identityTransformer } from '../../../src/storage/encryption/identity.js';
import { providerTransformer } from '../../../src/storage/encryption/plan.js';
import { secretboxTransformer } from '../../../src/storage/encryption/secretbox.js';
import { PrefixTransformers, TransformError, type ValueTransformer } from '../../../src/storage/encryption/transformer.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const key = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const AD = enc('/registry/secrets/default/db');

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TransformError);
    return (e as Error).message;
  }
  throw new Error('expected a failure');
}

describe('aescbc', () => {
  it.each([16, 24, 32])('round-trips with a %i-byte key; the layout is IV then PKCS#7-padded blocks (another AES-CBC opens it)', (size) => {
    const t = aesCbcTransformer(key(size));
    for (const text of ['', 'a', 'exactly 16 bytes', 'x'.repeat(100)]) {
      const stored = t.toStorage(enc(text), AD);
      expect(stored.length).toBe(16 + (Math.floor(enc(text).length / 16) + 1) * 16);
      expect(dec(t.fromStorage(stored, AD).data)).toBe(text);
      expect(dec(cbc(key(size), stored.slice(0, 16)).decrypt(stored.slice(16)))).toBe(text);
    }
  });

  it('uses a random IV: the same plaintext is stored differently each time', () => {
    const t = aesCbcTransformer(key(32));
    expect(Buffer.from(t.toStorage(enc('same'), AD)).equals(Buffer.from(t.toStorage(enc('same'), AD)))).toBe(false);
  });

  it("fails with Go's errors for short, misaligned and badly padded data", () => {
    const t = aesCbcTransformer(key(16));
    expect(failure(() => t.fromStorage(new Uint8Array(15), AD))).toBe('the stored data was shorter than the required size');
    expect(failure(() => t.fromStorage(new Uint8Array(40), AD))).toBe('the stored data is not a multiple of the block size');
    const iv = new Uint8Array(16);
    const raw = (block: Uint8Array) => new Uint8Array([...iv, ...cbc(key(16), iv, { disablePadding: true }).encrypt(block)]);
    expect(failure(() => t.fromStorage(raw(new Uint8Array(16)), AD))).toBe('invalid PKCS7 data (empty or not padded)');
    const bad = new Uint8Array(16);
    bad[14] = 1;
    bad[15] = 2;
    expect(failure(() => t.fromStorage(raw(bad), AD))).toBe('invalid padding on input');
    expect(failure(() => t.fromStorage(raw(new Uint8Array(16).fill(17)), AD))).toBe('invalid PKCS7 data (empty or not padded)');
  });
});

describe('aesgcm', () => {
  it('opens a ciphertext recorded from kube-apiserver (key "snorlax_awesomes", authenticated data "bamboo")', () => {
    const t = aesGcmTransformer(enc('snorlax_awesomes'));
    const stored = Buffer.from('9f27c8fcea8a58c467d8e437dbf2d85955f9b4bd912f4ef967d788a0cb07797dac0a3f0a0845605ca85ac8562b4ae1', 'hex');
    expect(dec(t.fromStorage(new Uint8Array(stored), enc('bamboo')).data)).toBe('pandas are the best');
    expect(failure(() => t.fromStorage(new Uint8Array(stored), enc('panda')))).toBe('cipher: message authentication failed');
  });

  it.each([16, 24, 32])('round-trips with a %i-byte key: nonce, ciphertext, tag bound to the storage key', (size) => {
    const t = aesGcmTransformer(key(size));
    const stored = t.toStorage(enc('hello'), AD);
    expect(stored.length).toBe(12 + 5 + 16);
    expect(dec(t.fromStorage(stored, AD).data)).toBe('hello');
    expect(dec(gcm(key(size), stored.slice(0, 12), AD).decrypt(stored.slice(12)))).toBe('hello');
    expect(failure(() => t.fromStorage(stored, enc('/registry/secrets/default/other')))).toBe('cipher: message authentication failed');
  });

  it('refuses short and tampered data', () => {
    const t = aesGcmTransformer(key(16));
    expect(failure(() => t.fromStorage(new Uint8Array(11), AD))).toBe('the stored data was shorter than the required size');
    expect(failure(() => t.fromStorage(new Uint8Array(20), AD))).toBe('cipher: message authentication failed');
    const stored = t.toStorage(enc('hello'), AD);
    stored[13]! ^= 1;
    expect(failure(() => t.fromStorage(stored, AD))).toBe('cipher: message authentication failed');
  });
});

describe('secretbox', () => {
  it("round-trips; the layout is a 24-byte nonce, then NaCl's box (tag first)", () => {
    const t = secretboxTransformer(key(32));
    const stored = t.toStorage(enc('hello'), AD);
    expect(stored.length).toBe(24 + 16 + 5);
    expect(dec(t.fromStorage(stored, AD).data)).toBe('hello');
    expect(dec(xsalsa20poly1305(key(32), stored.slice(0, 24)).decrypt(stored.slice(24)))).toBe('hello');
  });

  it("answers Go's message for a wrong key, tampering and short data", () => {
    const stored = secretboxTransformer(key(32)).toStorage(enc('hello'), AD);
    expect(failure(() => secretboxTransformer(key(32, 2)).fromStorage(stored, AD))).toBe('output array was not large enough for encryption');
    const tampered = stored.slice();
    tampered[30]! ^= 0x80;
    expect(failure(() => secretboxTransformer(key(32)).fromStorage(tampered, AD))).toBe('output array was not large enough for encryption');
    expect(failure(() => secretboxTransformer(key(32)).fromStorage(new Uint8Array(39), AD))).toBe('the stored data was shorter than the required size');
  });

  it('needs a 32-byte key', () => {
    expect(() => secretboxTransformer(key(16))).toThrow('expected key size 32 for secretbox provider, got 16');
  });
});

describe('identity', () => {
  it('passes data through and refuses encrypted data', () => {
    expect(dec(identityTransformer.fromStorage(enc('{"a":1}'), AD).data)).toBe('{"a":1}');
    expect(failure(() => identityTransformer.fromStorage(enc('k8s:enc:aescbc:v1:k:xyz'), AD))).toBe('identity transformer tried to read encrypted data');
  });
});

describe('prefixed transformers', () => {
  const cbc1 = providerTransformer({ type: 'aescbc', keys: [{ name: 'key1', secret: key(32) }] });
  const cbc2 = providerTransformer({ type: 'aescbc', keys: [{ name: 'key2', secret: key(32, 2) }] });
  const gcm1 = providerTransformer({ type: 'aesgcm', keys: [{ name: 'key1', secret: key(16) }] });
  const box = providerTransformer({ type: 'secretbox', keys: [{ name: 'k', secret: key(32) }] });
  const identity = providerTransformer({ type: 'identity' });

  it('writes with the first provider and its first key, behind their prefixes', () => {
    const t = new PrefixTransformers([cbc1, gcm1], 'no matching prefix found');
    const stored = t.toStorage(enc('x'), AD);
    expect(dec(stored.subarray(0, 23))).toBe('k8s:enc:aescbc:v1:key1:');
    expect(dec(new PrefixTransformers([gcm1], 'n').toStorage(enc('x'), AD).subarray(0, 23))).toBe('k8s:enc:aesgcm:v1:key1:');
    expect(dec(new PrefixTransformers([box], 'n').toStorage(enc('x'), AD).subarray(0, 23))).toBe('k8s:enc:secretbox:v1:k:');
    expect(dec(new PrefixTransformers([identity], 'n').toStorage(enc('plain'), AD))).toBe('plain');
  });

  it('reads with whichever provider the prefix names; identity accepts unprefixed data', () => {
    const writer = new PrefixTransformers([gcm1], 'n');
    const reader = new PrefixTransformers([cbc1, identity, gcm1], 'no matching prefix found');
    expect(dec(reader.fromStorage(writer.toStorage(enc('via gcm'), AD), AD).data)).toBe('via gcm');
    expect(dec(reader.fromStorage(enc('{"plain":true}'), AD).data)).toBe('{"plain":true}');
  });

  it('tells a read by a later provider or key as stale', () => {
    const twoKeys = providerTransformer({
      type: 'aescbc',
      keys: [
        { name: 'key2', secret: key(32, 2) },
        { name: 'key1', secret: key(32) },
      ],
    });
    const stored = new PrefixTransformers([cbc1], 'n').toStorage(enc('x'), AD);
    expect(new PrefixTransformers([cbc1], 'n').fromStorage(stored, AD).stale).toBe(false);
    expect(new PrefixTransformers([twoKeys], 'n').fromStorage(stored, AD).stale).toBe(true);
    expect(new PrefixTransformers([gcm1, cbc1], 'n').fromStorage(stored, AD).stale).toBe(true);
    expect(new PrefixTransformers([cbc1, identity], 'n').fromStorage(enc('{}'), AD).stale).toBe(true);
  });

  it("fails as kube-apiserver: an unknown prefix, a key no provider has, several providers' errors", () => {
    const stored = new PrefixTransformers([cbc2], 'n').toStorage(enc('secret'), AD);
    expect(failure(() => new PrefixTransformers([gcm1], 'no matching prefix found').fromStorage(stored, AD))).toBe('no matching prefix found');
    expect(failure(() => new PrefixTransformers([cbc1], 'no matching prefix found').fromStorage(stored, AD))).toBe(
      'no matching key was found for the provided AES transformer',
    );
    expect(failure(() => new PrefixTransformers([box], 'x').fromStorage(enc('k8s:enc:secretbox:v1:other:abc'), AD))).toBe(
      'no matching key was found for the provided Secretbox transformer',
    );
    // identity refuses encrypted data silently: the answer is the other providers' (or no match).
    expect(failure(() => new PrefixTransformers([identity], 'no matching prefix found').fromStorage(stored, AD))).toBe('no matching prefix found');
    const wrongKey1 = providerTransformer({ type: 'secretbox', keys: [{ name: 'k', secret: key(32, 3) }] });
    const wrongFirst = new PrefixTransformers([wrongKey1, cbc1], 'x');
    expect(failure(() => wrongFirst.fromStorage(new PrefixTransformers([box], 'x').toStorage(enc('s'), AD), AD))).toBe(
      'output array was not large enough for encryption',
    );
    const gcmWrong = providerTransformer({ type: 'aesgcm', keys: [{ name: 'key1', secret: key(16, 9) }] });
    const gcmOther = providerTransformer({ type: 'aesgcm', keys: [{ name: 'zzz', secret: key(16, 9) }] });
    const both = new PrefixTransformers([gcmWrong, gcmOther], 'x');
    expect(failure(() => both.fromStorage(new PrefixTransformers([gcm1], 'x').toStorage(enc('s'), AD), AD))).toBe(
      '[cipher: message authentication failed, no matching key was found for the provided AES transformer]',
    );
  });

  it('never opens what another key sealed, and never throws anything but a TransformError (property)', () => {
    const transformers: ValueTransformer[] = [
      new PrefixTransformers([cbc1, identity], 'no matching prefix found'),
      new PrefixTransformers([gcm1], 'no matching prefix found'),
      new PrefixTransformers([box], 'no matching prefix found'),
    ];
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom('k8s:enc:aescbc:v1:key1:', 'k8s:enc:aesgcm:v1:key1:', 'k8s:enc:secretbox:v1:k:', ''),
        (bytes, prefix) => {
          const data = new Uint8Array([...enc(prefix), ...bytes]);
          for (const t of transformers) {
            try {
              t.fromStorage(data, AD);
            } catch (e) {
              expect(e).toBeInstanceOf(TransformError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
