import { createPublicKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../src/cluster.js';
import { certificateDuration } from '../../../src/controllers/certificates/signing.js';
import { CSR_HONORED_DURATION_TOTAL, CSR_REQUESTED_DURATION_TOTAL } from '../../../src/controllers/certificates/duration-metrics.js';
import { generateCertificateAuthority, SigningCaError } from '../../../src/pki/self-signed.js';
import { createCsr, decide, getCsr, issued, KUBELET_CLIENT_USAGES, privateKey, requestFor, SHARED_KEY } from './helpers.js';

const T0 = Date.parse('2026-06-01T00:00:00Z');
const HOUR = 3_600_000;
const CLIENT = 'kubernetes.io/kube-apiserver-client';
const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const SERVING = 'kubernetes.io/kubelet-serving';

async function approvedAndSettled(cluster: Awaited<ReturnType<typeof createCluster>>, name: string, spec: Parameters<typeof createCsr>[2]) {
  await createCsr(cluster, name, spec);
  await decide(cluster, name, 'Approved');
  await cluster.settle();
  return getCsr(cluster, name);
}

describe('CSR signing controller', () => {
  it('signs an approved kube-apiserver-client request with the cluster CA for a year, backdated 5 minutes', async () => {
    const c = await createCluster({ clock: T0 });
    const csr = await approvedAndSettled(c, 'alice', {
      request: await requestFor({ commonName: 'alice', organizations: ['dev', 'ops'] }),
      signerName: CLIENT,
      usages: ['client auth', 'digital signature'],
    });
    const cert = issued(csr)!;
    expect(cert.subject).toBe('O=dev + O=ops\nCN=alice');
    const ca = new X509Certificate((await c.signingCA())!);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(Date.parse(cert.validFrom)).toBe(T0 - 5 * 60_000);
    // Long-lived: the end is backdated too (now + TTL - backdate).
    expect(Date.parse(cert.validTo)).toBe(T0 + 8760 * HOUR - 5 * 60_000);
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(cert.publicKey.export({ type: 'spki', format: 'der' })).toEqual(createPublicKey(SHARED_KEY).export({ type: 'spki', format: 'der' }));
    // The default duration is not counted: nothing was requested.
    expect(await c.metrics.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: CLIENT })).toBe(0);
    await c.close();
  });

  it('honours a shorter expirationSeconds (not backdating its end) and counts it as requested and honoured', async () => {
    const c = await createCluster({ clock: T0 });
    const csr = await approvedAndSettled(c, 'short', {
      request: await requestFor({ commonName: 'bob' }),
      signerName: CLIENT,
      usages: ['client auth'],
      expirationSeconds: 3600,
    });
    const cert = issued(csr)!;
    expect(Date.parse(cert.validTo)).toBe(T0 + HOUR);
    expect(await c.metrics.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: CLIENT })).toBe(1);
    expect(await c.metrics.value(CSR_HONORED_DURATION_TOTAL, { signerName: CLIENT })).toBe(1);
    await c.close();
  });

  it('caps expirationSeconds at the cluster signing duration, counted as requested but not honoured', async () => {
    const c = await createCluster({ clock: T0, certificateSigning: { durationMs: 2 * HOUR } });
    const csr = await approvedAndSettled(c, 'capped', {
      request: await requestFor({ commonName: 'carol' }),
      signerName: CLIENT,
      usages: ['client auth'],
      expirationSeconds: 10 * 3600,
    });
    expect(Date.parse(issued(csr)!.validTo)).toBe(T0 + 2 * HOUR);
    expect(await c.metrics.value(CSR_REQUESTED_DURATION_TOTAL, { signerName: CLIENT })).toBe(1);
    expect(await c.metrics.value(CSR_HONORED_DURATION_TOTAL, { signerName: CLIENT })).toBe(0);
    const csrSamples = (await c.metrics.samples()).filter((x) => x.name.startsWith('apiserver_certificates_registry_'));
    expect(csrSamples).toEqual([{ name: CSR_REQUESTED_DURATION_TOTAL, labels: { signerName: CLIENT }, value: 1 }]);
    await c.close();
  });

  it('signs with a configured CA and keeps the requested duration within [10 minutes, the maximum]', async () => {
    const ca = await generateCertificateAuthority({ commonName: 'my-ca', now: T0 });
    const c = await createCluster({ clock: T0, certificateSigning: { caCert: ca.cert, caKey: ca.key } });
    expect(await c.signingCA()).toBe(ca.cert);
    const csr = await approvedAndSettled(c, 'rsa', {
      request: await requestFor({ commonName: 'dave' }, privateKey('rsa')),
      signerName: CLIENT,
      usages: ['client auth', 'key encipherment'],
    });
    const cert = issued(csr)!;
    expect(cert.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(cert.issuer).toBe('CN=my-ca');
    expect(cert.publicKey.asymmetricKeyType).toBe('rsa');
    expect(certificateDuration(undefined, 5 * HOUR)).toBe(5 * HOUR);
    expect(certificateDuration(60, 5 * HOUR)).toBe(10 * 60_000);
    expect(certificateDuration(7200, 5 * HOUR)).toBe(2 * HOUR);
    await c.close();
  });

  it('signs a kubelet serving request with its SANs, and a node client request', async () => {
    const c = await createCluster({ clock: T0 });
    const serving = await approvedAndSettled(c, 'serving', {
      request: await requestFor({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example'], ipAddresses: ['10.0.0.7'] }),
      signerName: SERVING,
      usages: ['digital signature', 'server auth'],
    });
    const cert = issued(serving)!;
    expect(cert.subjectAltName).toBe('DNS:n1.example, IP Address:10.0.0.7');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    const client = await approvedAndSettled(c, 'client', {
      request: await requestFor({ commonName: 'system:node:n1', organizations: ['system:nodes'] }),
      signerName: KUBELET_CLIENT,
      usages: KUBELET_CLIENT_USAGES,
    });
    expect(issued(client)!.subject).toBe('O=system:nodes\nCN=system:node:n1');
    await c.close();
  });

  it.each([
    ['server auth for an API server client', CLIENT, { commonName: 'x' }, ['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
    ['no client auth', CLIENT, { commonName: 'x' }, ['digital signature'], 'missing required usage for client certificate: client auth'],
    [
      'a node client of another organization',
      KUBELET_CLIENT,
      { commonName: 'system:node:n1', organizations: ['system:masters'] },
      KUBELET_CLIENT_USAGES,
      'subject organization is not system:nodes',
    ],
    [
      'a node client with a DNS SAN',
      KUBELET_CLIENT,
      { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['a'] },
      KUBELET_CLIENT_USAGES,
      'DNS subjectAltNames are not allowed',
    ],
    [
      'a node client with an IP SAN',
      KUBELET_CLIENT,
      { commonName: 'system:node:n1', organizations: ['system:nodes'], ipAddresses: ['1.2.3.4'] },
      KUBELET_CLIENT_USAGES,
      'IP subjectAltNames are not allowed',
    ],
    [
      'a node client not named system:node:',
      KUBELET_CLIENT,
      { commonName: 'mallory', organizations: ['system:nodes'] },
      KUBELET_CLIENT_USAGES,
      'subject common name does not begin with system:node:',
    ],
    [
      'a node client with server auth',
      KUBELET_CLIENT,
      { commonName: 'system:node:n1', organizations: ['system:nodes'] },
      ['digital signature', 'client auth', 'server auth'],
      'usages did not match [client auth digital signature key encipherment]',
    ],
    [
      'a serving request without SANs',
      SERVING,
      { commonName: 'system:node:n1', organizations: ['system:nodes'] },
      ['digital signature', 'server auth'],
      'DNS or IP subjectAltName is required',
    ],
    [
      'a serving request with client auth',
      SERVING,
      { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'] },
      ['digital signature', 'client auth'],
      'usages did not match [digital signature key encipherment server auth]',
    ],
    [
      'a serving request not named system:node:',
      SERVING,
      { commonName: 'n1', organizations: ['system:nodes'], dnsNames: ['n1'] },
      ['digital signature', 'server auth'],
      'subject common name does not begin with system:node:',
    ],
  ])('marks %s Failed with SignerValidationFailure', async (_what, signerName, subject, usages, message) => {
    const c = await createCluster({ clock: T0 });
    const csr = await approvedAndSettled(c, 'bad', { request: await requestFor(subject), signerName, usages });
    expect(csr.status?.certificate).toBeUndefined();
    expect(csr.status?.conditions?.find((x) => x.type === 'Failed')).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message });
    await c.close();
  });

  it('leaves pending, denied and foreign-signer requests alone', async () => {
    const c = await createCluster({ clock: T0 });
    const request = await requestFor({ commonName: 'eve' });
    await createCsr(c, 'pending', { request, signerName: CLIENT, usages: ['client auth'] });
    await createCsr(c, 'denied', { request, signerName: CLIENT, usages: ['client auth'] });
    await decide(c, 'denied', 'Denied');
    await createCsr(c, 'foreign', { request, signerName: 'example.com/signer', usages: ['client auth'] });
    await decide(c, 'foreign', 'Approved');
    await c.settle();
    for (const name of ['pending', 'denied', 'foreign']) expect((await getCsr(c, name)).status?.certificate).toBeUndefined();
    await c.close();
  });

  it('signs only for the signers given a CA of their own', async () => {
    const ca = await generateCertificateAuthority({ commonName: 'serving-ca', now: T0 });
    const c = await createCluster({ clock: T0, certificateSigning: { signers: { 'kubelet-serving': { caCert: ca.cert, caKey: ca.key } } } });
    expect(await c.signingCA('kubelet-serving')).toBe(ca.cert);
    expect(await c.signingCA()).toBeUndefined();
    const csr = await approvedAndSettled(c, 'client', { request: await requestFor({ commonName: 'x' }), signerName: CLIENT, usages: ['client auth'] });
    expect(csr.status?.certificate).toBeUndefined();
    await c.close();
  });

  it('refuses CAs that cannot sign, and flags that conflict, with clear errors', async () => {
    const ca = await generateCertificateAuthority({ commonName: 'ca', now: T0 });
    const other = await generateCertificateAuthority({ commonName: 'other', now: T0 });
    const leafKey = privateKey();
    await expect(createCluster({ certificateSigning: { caCert: ca.cert, caKey: other.key } })).rejects.toThrow(
      new SigningCaError('the CA key does not match the CA certificate'),
    );
    await expect(createCluster({ certificateSigning: { caCert: 'garbage', caKey: leafKey } })).rejects.toThrow('the CA certificate is not a PEM certificate');
    await expect(createCluster({ certificateSigning: { caCert: ca.cert } })).rejects.toThrow('the cluster signing CA needs both a certificate and a key');
    await expect(
      createCluster({ certificateSigning: { caCert: ca.cert, caKey: ca.key, signers: { 'kubelet-serving': { caCert: ca.cert, caKey: ca.key } } } }),
    ).rejects.toThrow('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
    await expect(createCluster({ certificateSigning: { durationMs: 0 } })).rejects.toThrow('the cluster signing duration must be positive');
  });
});

describe('cluster.listen({ tls: true }) and issued client certificates', () => {
  it('trusts the client signers’ CA, so an issued certificate authenticates its subject', async () => {
    const { request } = await import('node:https');
    const c = await createCluster();
    const key = privateKey();
    await createCsr(c, 'alice', {
      request: await requestFor({ commonName: 'alice', organizations: ['dev'] }, key),
      signerName: CLIENT,
      usages: ['client auth'],
    });
    await decide(c, 'alice', 'Approved');
    await c.settle();
    const cert = Buffer.from((await getCsr(c, 'alice')).status!.certificate!, 'base64').toString();
    const server = await c.listen({ tls: true });
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
        { method: 'POST', cert, key, ca: server.certificateAuthority, headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
    });
    expect((JSON.parse(body) as { status: { userInfo: unknown } }).status.userInfo).toMatchObject({
      username: 'alice',
      groups: ['dev', 'system:authenticated'],
    });
    await server.close();
    await c.close();
  });
});
