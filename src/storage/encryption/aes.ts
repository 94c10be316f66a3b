/**
 * AES-CBC and AES-GCM transformers (k8s.io/apiserver pkg/storage/value/encrypt/aes), on Node's
 * crypto. The stored layouts are kube-apiserver's, so data moves between the two unchanged:
 *
 * - CBC: a random 16-byte IV, then the PKCS#7-padded plaintext encrypted (no authentication).
 * - GCM: a random 12-byte nonce, then the ciphertext and its 16-byte tag; the object's storage key
 *   is the authenticated data, so a ciphertext copied under another key does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TransformError, type ValueTransformer } from './transformer.js';

const BLOCK_SIZE = 16;
const GCM_NONCE_SIZE = 12;
const GCM_TAG_SIZE = 16;

/** The key sizes AES accepts (Go's `aes.NewCipher`). */
export const AES_KEY_SIZES: readonly number[] = [16, 24, 32];

function algorithm(key: Uint8Array, mode: 'cbc' | 'gcm'): string {
  if (!AES_KEY_SIZES.includes(key.length)) throw new Error(`crypto/aes: invalid key size ${key.length}`);
  return `aes-${key.length * 8}-${mode}`;
}

const SHORT = 'the stored data was shorter than the required size';

/** `aes.NewCBCTransformer`. */
export function aesCbcTransformer(key: Uint8Array): ValueTransformer {
  const alg = algorithm(key, 'cbc');
  return {
    fromStorage(data) {
      if (data.length < BLOCK_SIZE) throw new TransformError(SHORT);
      const iv = data.subarray(0, BLOCK_SIZE);
      const body = data.subarray(BLOCK_SIZE);
      if (body.length % BLOCK_SIZE !== 0) throw new TransformError('the stored data is not a multiple of the block size');
      const decipher = createDecipheriv(alg, key, iv).setAutoPadding(false);
      const result = Buffer.concat([decipher.update(body), decipher.final()]);
      // Go's CBC transformer checks the padding itself, with these errors.
      const pad = result.length ? result[result.length - 1]! : 0;
      if (pad === 0 || pad > result.length) throw new TransformError('invalid PKCS7 data (empty or not padded)');
      for (let i = result.length - pad; i < result.length; i++) {
        if (result[i] !== pad) throw new TransformError('invalid padding on input');
      }
      return { data: new Uint8Array(result.subarray(0, result.length - pad)), stale: false };
    },
    toStorage(data) {
      const pad = BLOCK_SIZE - (data.length % BLOCK_SIZE);
      const padded = Buffer.alloc(data.length + pad, pad);
      padded.set(data, 0);
      const iv = randomBytes(BLOCK_SIZE);
      const cipher = createCipheriv(alg, key, iv).setAutoPadding(false);
      return new Uint8Array(Buffer.concat([iv, cipher.update(padded), cipher.final()]));
    },
  };
}

/** `aes.NewGCMTransformer`: a random nonce per write. */
export function aesGcmTransformer(key: Uint8Array): ValueTransformer {
  const alg = algorithm(key, 'gcm') as 'aes-128-gcm';
  return {
    fromStorage(data, authenticatedData) {
      if (data.length < GCM_NONCE_SIZE) throw new TransformError(SHORT);
      const failed = new TransformError('cipher: message authentication failed');
      if (data.length < GCM_NONCE_SIZE + GCM_TAG_SIZE) throw failed;
      const decipher = createDecipheriv(alg, key, data.subarray(0, GCM_NONCE_SIZE), { authTagLength: GCM_TAG_SIZE });
      decipher.setAAD(authenticatedData);
      decipher.setAuthTag(data.subarray(data.length - GCM_TAG_SIZE));
      try {
        const plain = Buffer.concat([decipher.update(data.subarray(GCM_NONCE_SIZE, data.length - GCM_TAG_SIZE)), decipher.final()]);
        return { data: new Uint8Array(plain), stale: false };
      } catch {
        throw failed;
      }
    },
    toStorage(data, authenticatedData) {
      const nonce = randomBytes(GCM_NONCE_SIZE);
      const cipher = createCipheriv(alg, key, nonce, { authTagLength: GCM_TAG_SIZE });
      cipher.setAAD(authenticatedData);
      const body = Buffer.concat([cipher.update(data), cipher.final()]);
      return new Uint8Array(Buffer.concat([nonce, body, cipher.getAuthTag()]));
    },
  };
}
