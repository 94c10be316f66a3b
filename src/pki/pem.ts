/**
 * PEM (RFC 7468) encoding and decoding of DER blocks: certificates, PKCS#8 keys.
 */

/** Wraps DER bytes as a PEM block with 64-character lines. */
export function toPem(label: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof Uint8Array ? der : new Uint8Array(der)).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The DER bytes of every PEM block with this label, in order. */
export function fromPem(label: string, pem: string): Uint8Array[] {
  const re = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]*?)-----END ${label}-----`, 'g');
  const blocks: Uint8Array[] = [];
  for (const m of pem.matchAll(re)) blocks.push(new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
  return blocks;
}
