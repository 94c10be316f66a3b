/** Requests and keys for the CSR controller tests. */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { CertificateSigningRequestKind } from '../../../src/kinds/certificates/index.js';
import { createCertificateRequest, type CertificateRequestSubject } from '../../../src/pki/certificate-request.js';
import type { Cluster } from '../../../src/cluster.js';
import type { UserInfo } from '../../../src/machinery/request.js';

/** A PEM PKCS#8 private key: ECDSA P-256 by default, or RSA 2048. */
export function privateKey(type: 'ec' | 'rsa' = 'ec'): string {
  const pair =
    type === 'ec'
      ? generateKeyPairSync('ec', {
          namedCurve: 'P-256',
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
      : generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        });
  return pair.privateKey;
}

/** One EC key for every test that does not care which. */
export const SHARED_KEY = privateKey();

/** The base64 request of a subject. */
export async function requestFor(subject: CertificateRequestSubject, key = SHARED_KEY): Promise<string> {
  return Buffer.from(await createCertificateRequest(key, subject)).toString('base64');
}

/** The usages of a kubelet's client certificate. */
export const KUBELET_CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

/** Creates a CSR as `user` (the admin by default). */
export async function createCsr(
  cluster: Cluster,
  name: string,
  spec: { request: string; signerName: string; usages: string[]; expirationSeconds?: number },
  user?: UserInfo,
) {
  const client = user ? cluster.client.as(user) : cluster.client;
  return client.resource(CertificateSigningRequestKind).create({ metadata: { name }, spec } as never);
}

/** Adds a condition through /approval as the admin. */
export async function decide(cluster: Cluster, name: string, type: 'Approved' | 'Denied', reason = 'ByTest') {
  const r = cluster.client.resource(CertificateSigningRequestKind);
  const csr = await r.get(name);
  return r.updateSubresource('approval', {
    ...csr,
    status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), { type, status: 'True', reason, message: 'by the test' }] },
  });
}

/** The stored request. */
export const getCsr = (cluster: Cluster, name: string) => cluster.client.resource(CertificateSigningRequestKind).get(name);

/** The issued certificate of a request, parsed. */
export function issued(csr: { status?: { certificate?: string } }): X509Certificate | undefined {
  return csr.status?.certificate ? new X509Certificate(Buffer.from(csr.status.certificate, 'base64')) : undefined;
}
