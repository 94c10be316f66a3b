/**
 * The hashes kube-apiserver puts in metric labels instead of the values themselves (an issuer
 * URL, the server's identity, a configuration file's bytes): `sha256:` and the lowercase hex of the
 * SHA-256 of the text, and the empty string for empty text (`getHash` of the oidc and
 * authentication config metrics).
 */
import { createHash } from 'node:crypto';

/** `sha256:<hex>` of `data`, `''` for empty data. */
export function metricHash(data: string): string {
  return data.length === 0 ? '' : `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
