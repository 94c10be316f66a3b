import { describe, expect, it } from 'vitest';
import { checkRequestSignature, createCertificateRequest, readCertificateRequest } from '../../src/pki/certificate-request.js';
import { generateCertificateAuthority, loadSigningCa } from '../../src/pki/self-signed.js';
import { keyUsagesFromStrings, signCertificateRequest, SigningPolicyError, validityWindow } from '../../src/pki/sign-request.js';
import { toPem } from '../../src/pki/pem.js';
import { SHARED_KEY } from '../controllers/certificates/helpers.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;
const policy = { ttlMs: 24 * HOUR, usages: ['client auth'], backdateMs: 5 * 60_000, shortMs: 8 * HOUR, now: T0 };

describe('reading certificate requests', () => {
  it('reads the subject and SANs as Go does', async () => {
    const pem = await createCertificateRequest(SHARED_KEY, {
      commonName: 'system:node:n1',
      organizations: ['a', 'b'],
      dnsNames: ['x.example'],
      ipAddresses: ['10.1.2.3', '::1'],
    });
    const info = readCertificateRequest(pem);
    if (typeof info === 'string') throw new Error(info);
    expect(info).toMatchObject({
      commonName: 'system:node:n1',
      organizations: ['a', 'b'],
      dnsNames: ['x.example'],
      ipAddresses: ['0a010203', '0'.repeat(31) + '1'],
      emailAddresses: [],
      uris: [],
      publicKeyAlgorithm: 'ec',
    });
    expect(checkRequestSignature(info)).toBeUndefined();
  });

  it("answers Go's errors for garbage, other PEM blocks, truncated and oversized DER", async () => {
    expect(readCertificateRequest('garbage')).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(readCertificateRequest(toPem('CERTIFICATE', new Uint8Array([1, 2, 3])))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(readCertificateRequest(toPem('CERTIFICATE REQUEST', new Uint8Array([0x30, 0x82, 0xff, 0xff, 0])))).toBe('x509: malformed certificate request');
    expect(readCertificateRequest(toPem('CERTIFICATE REQUEST', new Uint8Array(1 << 20).fill(0x41)))).toBe('x509: malformed certificate request');
    const pem = await createCertificateRequest(SHARED_KEY, { commonName: 'a' });
    const der = Buffer.from(pem.replace(/-----[A-Z ]+-----|\n/g, ''), 'base64');
    expect(readCertificateRequest(toPem('CERTIFICATE REQUEST', der.subarray(0, der.length - 10)))).toBe('x509: malformed certificate request');
    // A flipped signature bit parses but does not verify.
    der[der.length - 3]! ^= 1;
    const tampered = readCertificateRequest(toPem('CERTIFICATE REQUEST', der));
    if (typeof tampered === 'string') throw new Error(tampered);
    expect(checkRequestSignature(tampered)).toBe('x509: ECDSA verification failure');
  });

  it('refuses to make a request with a key it cannot sign with', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const ed = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    await expect(createCertificateRequest(ed, { commonName: 'a' })).rejects.toThrow('unsupported private key type ed25519');
    await expect(createCertificateRequest('not a key', { commonName: 'a' })).rejects.toThrow();
  });
});

describe('the signing policy', () => {
  it('maps usages to KeyUsage bits and sorted ExtKeyUsages, and refuses unknown ones', () => {
    expect(keyUsagesFromStrings(['client auth', 'server auth', 'key encipherment', 'digital signature', 'signing'])).toEqual({
      bits: [0, 2],
      extKeyUsages: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2'],
    });
    expect(() => keyUsagesFromStrings(['client auth', 'bogus', 'worse'])).toThrow(new SigningPolicyError('unrecognized usage values: ["bogus" "worse"]'));
  });

  it('backdates, ends no later than the CA, and refuses an expired CA', () => {
    expect(validityWindow(policy, T0 + 1000 * HOUR)).toEqual({ notBefore: T0 - 5 * 60_000, notAfter: T0 + 24 * HOUR - 5 * 60_000 });
    expect(validityWindow({ ...policy, ttlMs: HOUR }, T0 + 1000 * HOUR).notAfter).toBe(T0 + HOUR);
    expect(validityWindow(policy, T0 + HOUR).notAfter).toBe(T0 + HOUR);
    expect(() => validityWindow(policy, T0 - HOUR)).toThrow('the signer has expired: NotAfter=2026-05-31 23:00:00 +0000 UTC');
    expect(() => validityWindow(policy, T0 - 60_000)).toThrow(
      'refusing to sign a certificate that expired in the past: NotAfter=2026-05-31 23:59:00 +0000 UTC',
    );
  });

  it('issues a certificate the CA verifies, not a CA itself, without the extensions of the request but its SANs', async () => {
    const { X509Certificate } = await import('node:crypto');
    const ca = await loadSigningCa(await generateCertificateAuthority({ commonName: 'ca', now: T0 }));
    const info = readCertificateRequest(await createCertificateRequest(SHARED_KEY, { commonName: 'n', dnsNames: ['n.example'] }));
    if (typeof info === 'string') throw new Error(info);
    const cert = new X509Certificate(await signCertificateRequest(ca, info, { ...policy, usages: ['server auth', 'digital signature'] }));
    expect(cert.verify(new X509Certificate(ca.pem).publicKey)).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.subjectAltName).toBe('DNS:n.example');
    expect(cert.issuer).toBe('CN=ca');
  });
});
