import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromPem, toPem } from '../../src/pki/pem.js';
import { generateServingCertificate, ipAddressBytes } from '../../src/pki/self-signed.js';

describe('PEM', () => {
  it('round-trips DER blocks with 64-character lines', () => {
    const der = new Uint8Array(100).map((_, i) => i);
    const pem = toPem('CERTIFICATE', der);
    expect(pem.split('\n').every((l) => l.length <= 64)).toBe(true);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    expect(fromPem('CERTIFICATE', pem + pem)).toEqual([der, der]);
    expect(fromPem('PRIVATE KEY', pem)).toEqual([]);
  });
});

describe('ipAddressBytes', () => {
  it.each([
    ['127.0.0.1', '7f000001'],
    ['::1', '00000000000000000000000000000001'],
    ['[::1]', '00000000000000000000000000000001'],
    ['fe80::1%eth0', 'fe800000000000000000000000000001'],
    ['2001:db8::8:800:200c:417a', '20010db80000000000080800200c417a'],
    ['::ffff:1.2.3.4', '00000000000000000000ffff01020304'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
  ])('%s', (ip, hex) => expect(Buffer.from(ipAddressBytes(ip)!).toString('hex')).toBe(hex));
  it('is undefined for names', () => expect(ipAddressBytes('localhost')).toBeUndefined());
});

describe('generateServingCertificate', () => {
  const now = Date.UTC(2031, 4, 6, 7, 8, 9);

  it('makes a CA and a serving certificate it signed, for the hosts, valid around now', async () => {
    const pki = await generateServingCertificate({ hosts: ['127.0.0.1', 'localhost', '::1', 'api.example.test'], now });
    const ca = new X509Certificate(pki.ca.cert);
    const cert = new X509Certificate(pki.serving.cert);

    expect(ca.ca).toBe(true);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(ca.subject).toBe(ca.issuer);
    expect(ca.subject).toMatch(/^CN=memkube-ca@\d+$/);

    expect(cert.ca).toBe(false);
    expect(cert.issuer).toBe(ca.subject);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost, IP Address:0:0:0:0:0:0:0:1, DNS:api.example.test');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('api.example.test')).toBe('api.example.test');
    expect(cert.checkHost('other.example.test')).toBeUndefined();
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // extended key usage: serverAuth

    for (const c of [ca, cert]) {
      expect(c.publicKey.asymmetricKeyType).toBe('ec');
      expect(c.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
      expect(Date.parse(c.validFrom)).toBeLessThanOrEqual(now - 3_600_000);
      expect(Date.parse(c.validTo)).toBeGreaterThan(now);
    }
    expect(Date.parse(cert.validTo)).toBe(now + 365 * 24 * 3_600_000);

    // The keys are the certificates' keys.
    expect(cert.checkPrivateKey(createPrivateKey(pki.serving.key))).toBe(true);
    expect(ca.checkPrivateKey(createPrivateKey(pki.ca.key))).toBe(true);
  });

  it('is fresh each time, and valid around real time by default', async () => {
    const [a, b] = await Promise.all([generateServingCertificate({ hosts: ['localhost'] }), generateServingCertificate({ hosts: ['localhost'] })]);
    const ca = new X509Certificate(a!.ca.cert);
    expect(new X509Certificate(a!.serving.cert).serialNumber).not.toBe(new X509Certificate(b!.serving.cert).serialNumber);
    expect(new X509Certificate(b!.serving.cert).verify(ca.publicKey)).toBe(false);
    const t = Date.now();
    expect(Date.parse(ca.validFrom)).toBeLessThan(t);
    expect(Date.parse(ca.validTo)).toBeGreaterThan(t);
  });

  it('uses GeneralizedTime from 2050 on', async () => {
    const later = Date.UTC(2070, 0, 1);
    const cert = new X509Certificate((await generateServingCertificate({ hosts: ['localhost'], now: later })).serving.cert);
    expect(Date.parse(cert.validFrom)).toBe(later - 3_600_000);
    expect(Date.parse(cert.validTo)).toBe(later + 365 * 24 * 3_600_000);
  });
});
