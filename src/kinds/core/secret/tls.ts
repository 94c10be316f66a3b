/**
 * The warning Kubernetes returns for a `kubernetes.io/tls` Secret whose certificate and key do not
 * form a pair: the text of Go's `tls.X509KeyPair` error. The PEM block checks follow Go exactly;
 * certificate and key parsing use Node's crypto, with Go's messages for the common failures.
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

interface PemBlock {
  type: string;
  der: Buffer;
}

/** Go's `pem.Decode` applied repeatedly: every well-formed block, in order. */
function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (const m of text.matchAll(re)) {
    const body = m[2]!.split(/\r?\n/).filter((l) => !l.includes(':'));
    const b64 = body.join('').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) continue;
    blocks.push({ type: m[1]!, der: Buffer.from(b64, 'base64') });
  }
  return blocks;
}

function formatTypes(types: readonly string[]): string {
  return `[${types.join(' ')}]`;
}

function parsePrivateKey(der: Buffer): KeyObject | undefined {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // try the next encoding, as Go does
    }
  }
  return undefined;
}

/** Go's `tls.X509KeyPair(cert, key)` error text, or undefined when the pair is good. */
export function x509KeyPairError(certPem: Buffer, keyPem: Buffer): string | undefined {
  const certBlocks = pemBlocks(certPem.toString('latin1'));
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]!.endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${formatTypes(skipped)}`;
  }
  const skipped: string[] = [];
  let keyBlock: PemBlock | undefined;
  for (const b of pemBlocks(keyPem.toString('latin1'))) {
    if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) {
      keyBlock = b;
      break;
    }
    skipped.push(b.type);
  }
  if (!keyBlock) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${formatTypes(skipped)}`;
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certs[0]!.der);
  } catch {
    return 'x509: malformed certificate';
  }
  const key = parsePrivateKey(keyBlock.der);
  if (!key) return 'tls: failed to parse private key';
  const pub = cert.publicKey;
  if (pub.asymmetricKeyType !== key.asymmetricKeyType) return 'tls: private key type does not match public key type';
  const fromKey = createPublicKey(key).export({ type: 'spki', format: 'der' });
  if (!fromKey.equals(pub.export({ type: 'spki', format: 'der' }))) return 'tls: private key does not match public key';
  return undefined;
}
