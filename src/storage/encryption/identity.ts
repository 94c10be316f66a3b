/**
 * The identity transformer (k8s.io/apiserver pkg/storage/value/encrypt/identity): stores plaintext
 * and refuses to read anything that starts with `k8s:enc:`, so encrypted data is never mistaken
 * for an object.
 */
import { TransformError, type ValueTransformer } from './transformer.js';

/** The prefix every encrypting provider's output starts with. */
export const ENCRYPTED_PREFIX = 'k8s:enc:';

/** identity's error for encrypted data. */
export const IDENTITY_ENCRYPTED_DATA_ERROR = 'identity transformer tried to read encrypted data';

const encryptedPrefix = new TextEncoder().encode(ENCRYPTED_PREFIX);

/** True when `data` starts with `k8s:enc:`. */
export function looksEncrypted(data: Uint8Array): boolean {
  if (data.length < encryptedPrefix.length) return false;
  for (let i = 0; i < encryptedPrefix.length; i++) if (data[i] !== encryptedPrefix[i]) return false;
  return true;
}

/** `identity.NewEncryptCheckTransformer`. */
export const identityTransformer: ValueTransformer = {
  fromStorage(data) {
    if (looksEncrypted(data)) throw new TransformError(IDENTITY_ENCRYPTED_DATA_ERROR);
    return { data, stale: false };
  },
  toStorage(data) {
    return data;
  },
};
