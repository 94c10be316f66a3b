/**
 * The secretbox transformer (k8s.io/apiserver pkg/storage/value/encrypt/secretbox): NaCl's
 * XSalsa20-Poly1305 with a 32-byte key. Stored: a random 24-byte nonce, then the sealed box (the
 * 16-byte Poly1305 tag, then the ciphertext), as Go's `secretbox.Seal` lays it out.
 */
import { randomBytes } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { TransformError, type ValueTransformer } from './transformer.js';

const NONCE_SIZE = 24;
const OVERHEAD = 16;

/** The one key size secretbox accepts. */
export const SECRETBOX_KEY_SIZES: readonly number[] = [32];

/** `secretbox.NewSecretboxTransformer`. */
export function secretboxTransformer(key: Uint8Array): ValueTransformer {
  if (key.length !== 32) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
  return {
    fromStorage(data) {
      if (data.length < OVERHEAD + NONCE_SIZE) throw new TransformError('the stored data was shorter than the required size');
      try {
        return { data: xsalsa20poly1305(key, data.slice(0, NONCE_SIZE)).decrypt(data.slice(NONCE_SIZE)), stale: false };
      } catch {
        // Go's transformer says this whenever secretbox.Open fails (a wrong key, a changed byte).
        throw new TransformError('output array was not large enough for encryption');
      }
    },
    toStorage(data) {
      const nonce = new Uint8Array(randomBytes(NONCE_SIZE));
      const sealed = xsalsa20poly1305(key, nonce).encrypt(data);
      const out = new Uint8Array(NONCE_SIZE + sealed.length);
      out.set(nonce, 0);
      out.set(sealed, NONCE_SIZE);
      return out;
    },
  };
}
