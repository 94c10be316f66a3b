import { X509Certificate } from 'node:crypto';
import { request, type RequestOptions } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster, type Cluster } from '../../src/index.js';

interface Kubeconfig {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
}

/** A GET over node:https; answers status and body, or rejects with the TLS error. */
function get(url: string, options: RequestOptions = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ...options, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('cluster.listen({ tls: true })', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('serves HTTPS that the kubeconfig CA verifies', async () => {
    cluster = await createCluster();
    const server = await cluster.listen({ tls: true });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

    const config = parse(server.kubeconfig()) as Kubeconfig;
    const entry = config.clusters[0]!.cluster;
    expect(entry.server).toBe(server.url);
    expect(entry['insecure-skip-tls-verify']).toBeUndefined();
    const ca = Buffer.from(entry['certificate-authority-data'] as string, 'base64').toString();
    expect(ca).toBe(server.certificateAuthority);
    expect(new X509Certificate(ca).ca).toBe(true);
    // The administrator's client certificate, signed by the same CA: CommonName system:admin, Organization system:masters.
    const user = config.users[0]!.user as Record<string, string>;
    const adminCert = new X509Certificate(Buffer.from(user['client-certificate-data']!, 'base64').toString());
    expect(adminCert.subject.split('\n').sort()).toEqual(['CN=system:admin', 'O=system:masters']);
    expect(adminCert.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(user['client-key-data']).toBeTruthy();

    const res = await get(`${server.url}/version`, { ca });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ major: '1', gitVersion: expect.stringMatching(/^v1\./) });

    // localhost is in the certificate too.
    expect((await get(`https://localhost:${server.port}/healthz`, { ca })).body).toBe('ok');
  });

  it('is refused by a client that does not trust the CA', async () => {
    cluster = await createCluster();
    const server = await cluster.listen({ tls: true });
    // The server sends its CA with its certificate (it asks clients for certificates signed by it).
    await expect(get(`${server.url}/version`)).rejects.toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    const otherCluster = await createCluster();
    const other = await otherCluster.listen({ tls: true });
    await expect(get(`${server.url}/version`, { ca: other.certificateAuthority })).rejects.toThrow();
    await otherCluster.close();
  });

  it('makes certificates valid around the cluster clock', async () => {
    const frozen = Date.UTC(2030, 0, 2, 3, 4, 5);
    cluster = await createCluster({ clock: frozen });
    const server = await cluster.listen({ tls: true });
    const ca = new X509Certificate(server.certificateAuthority!);
    expect(Date.parse(ca.validFrom)).toBe(frozen - 3_600_000);
  });

  it('still serves plain HTTP without tls', async () => {
    cluster = await createCluster();
    const server = await cluster.listen();
    expect(server.url).toMatch(/^http:\/\//);
    expect(server.certificateAuthority).toBeUndefined();
    expect((parse(server.kubeconfig()) as Kubeconfig).clusters[0]!.cluster['insecure-skip-tls-verify']).toBe(true);
    // Without TLS the administrator's credential is the cluster's admin token.
    expect((parse(server.kubeconfig()) as Kubeconfig).users[0]!.user).toEqual({ token: cluster.adminToken });
  });
});
