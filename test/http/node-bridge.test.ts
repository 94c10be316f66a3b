/** What the x509 authenticator learns of a TLS client certificate through node:tls. */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientCertificateOf } from '../../src/http/node-bridge.js';

const withPeer = (peer: Record<string, unknown>, authorized = true) =>
  ({ socket: { encrypted: true, authorized, getPeerCertificate: () => peer } }) as unknown as IncomingMessage;

describe('clientCertificateOf', () => {
  it("reads the subject's UID attributes, named by OID, and the SHA-256 of the DER", () => {
    const raw = Buffer.from('not really DER, but hashed all the same');
    const cert = clientCertificateOf(withPeer({ subject: { CN: 'jane', O: ['dev', 'ops'], '1.3.6.1.4.1.57683.2': 'uid-123' }, raw }));
    expect(cert).toEqual({
      verified: true,
      commonName: 'jane',
      organizations: ['dev', 'ops'],
      sha256: createHash('sha256').update(raw).digest('hex'),
      uids: ['uid-123'],
    });
    expect(clientCertificateOf(withPeer({ subject: { CN: 'jane', '1.3.6.1.4.1.57683.2': ['a', 'b'] }, raw }))?.uids).toEqual(['a', 'b']);
  });
});
