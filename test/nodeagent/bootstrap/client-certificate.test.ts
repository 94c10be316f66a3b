import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import { CertificateSigningRequestKind } from '../../../src/kinds/certificates/index.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import type { KubeApiClient } from '../../../src/nodeagent/kube-api.js';
import {
  bootstrapClientCertificate,
  digestedCsrName,
  TMP_PRIVATE_KEY_FILE,
  type BootstrapKubeconfig,
} from '../../../src/nodeagent/bootstrap/client-certificate.js';

const TOKEN = 'abcdef.0123456789abcdef';
const T0 = Date.parse('2026-06-01T00:00:00Z');
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memkube-bootstrap-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A cluster that knows the bootstrap token; with RBAC nothing is approved unless bound. */
async function clusterWithToken(rbac = false): Promise<Cluster> {
  const c = await createCluster({ clock: T0, authentication: { bootstrapTokens: true }, ...(rbac ? { authorization: { modes: ['RBAC'] as const } } : {}) });
  await c.client.resource({ version: 'v1', resource: 'secrets' }).create({
    metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
  } as never);
  if (rbac) {
    await c.client.resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' }).create({
      metadata: { name: 'bootstrappers' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
    } as never);
  }
  return c;
}

async function writeBootstrapKubeconfig(): Promise<string> {
  const path = join(dir, 'bootstrap-kubeconfig');
  await writeFile(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "https://memkube.invalid:6443", certificate-authority-data: ""}}]',
      `users: [{name: u, user: {token: "${TOKEN}"}}]`,
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
      'current-context: x',
      '',
    ].join('\n'),
  );
  return path;
}

const kubeFor = (cluster: Cluster) => (bootstrap: BootstrapKubeconfig) =>
  kubeApiClientOverFetch(bootstrap.endpoint.url, createFetchHandler(cluster), { token: bootstrap.token });

const options = async (cluster: Cluster, extra: Partial<Parameters<typeof bootstrapClientCertificate>[0]> = {}) => ({
  kubeconfigPath: join(dir, 'kubelet.conf'),
  bootstrapKubeconfigPath: await writeBootstrapKubeconfig(),
  certDir: join(dir, 'pki'),
  nodeName: 'n1',
  kube: kubeFor(cluster),
  clock: cluster.clock,
  timeoutMs: 5000,
  ...extra,
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Resolves once the cluster holds `n` CSRs (the agent sent its request). */
async function untilRequested(cluster: Cluster, n = 1): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const { items } = await cluster.client.resource(CertificateSigningRequestKind).list();
    if (items.length >= n) return items[n - 1]!.metadata!.name!;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no CSR arrived');
}

describe('bootstrapClientCertificate', () => {
  it('gets a node client certificate with the bootstrap token, stores it and writes the kubeconfig that uses it', async () => {
    const c = await clusterWithToken();
    const o = await options(c);
    const result = await bootstrapClientCertificate(o);
    expect(result.requested).toBe(true);
    expect(result.csrName).toMatch(/^node-csr-[A-Za-z0-9_-]{43}$/);
    const csr = await c.client.resource(CertificateSigningRequestKind).get(result.csrName!);
    expect(csr.spec).toMatchObject({
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'key encipherment', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    });
    const current = join(o.certDir, 'kubelet-client-current.pem');
    expect(result.certificatePath).toBe(current);
    expect(await readlink(current)).toBe(join(o.certDir, 'kubelet-client-2026-06-01-00-00-00.pem'));
    const pair = await readFile(current, 'utf8');
    expect(pair).toMatch(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----[\s\S]+-----END EC PRIVATE KEY-----\n$/);
    const cert = new X509Certificate(pair);
    expect(cert.subject).toBe('O=system:nodes\nCN=system:node:n1');
    expect(cert.checkPrivateKey((await import('node:crypto')).createPrivateKey(pair))).toBe(true);
    expect(((await stat(current)).mode & 0o777).toString(8)).toBe('600');
    expect(await exists(join(o.certDir, TMP_PRIVATE_KEY_FILE))).toBe(false);
    const kubeconfig = parse(await readFile(o.kubeconfigPath, 'utf8')) as Record<string, unknown>;
    expect(kubeconfig).toMatchObject({
      'current-context': 'default-context',
      clusters: [{ name: 'default-cluster', cluster: { server: 'https://memkube.invalid:6443' } }],
      users: [{ name: 'default-auth', user: { 'client-certificate': current, 'client-key': current } }],
      contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', user: 'default-auth', namespace: 'default' } }],
    });
    // Valid now: a second start sends nothing.
    const untouched: KubeApiClient = {
      server: '',
      request: () => Promise.reject(new Error('no request expected')),
      watch: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('no watch expected')) }) }),
      close: () => undefined,
    };
    expect(await bootstrapClientCertificate({ ...o, kube: untouched })).toEqual({ requested: false });
    // Expired: the agent asks again, with the key it already has (the old request gone, as
    // kube-controller-manager's CSR cleaner deletes issued requests after an hour).
    c.clock.advance(366 * 24 * 3_600_000);
    await c.client.resource(CertificateSigningRequestKind).delete(result.csrName!);
    const again = await bootstrapClientCertificate(o);
    expect(again.requested).toBe(true);
    const renewed = await readFile(current, 'utf8');
    expect(renewed.slice(renewed.indexOf('-----BEGIN EC'))).toBe(pair.slice(pair.indexOf('-----BEGIN EC')));
    await c.close();
  });

  it("fails with kubelet's message when the request is denied, keeping the pending key", async () => {
    const c = await clusterWithToken(true);
    const o = await options(c);
    const running = bootstrapClientCertificate(o);
    const name = await untilRequested(c);
    const r = c.client.resource(CertificateSigningRequestKind);
    const csr = await r.get(name);
    await r.updateSubresource('approval', { ...csr, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'NotYou', message: 'go away' }] } });
    await expect(running).rejects.toThrow('certificate signing request is denied, reason: NotYou, message: go away');
    expect(await exists(join(o.certDir, TMP_PRIVATE_KEY_FILE))).toBe(true);
    expect(await exists(o.kubeconfigPath)).toBe(false);
    await c.close();
  });

  it('times out while nobody approves, then a restart finds its own request again and gets it once approved', async () => {
    const c = await clusterWithToken(true);
    const o = await options(c, { timeoutMs: 100 });
    await expect(bootstrapClientCertificate(o)).rejects.toThrow('timed out waiting for the condition');
    const key = await readFile(join(o.certDir, TMP_PRIVATE_KEY_FILE), 'utf8');
    const name = digestedCsrName(key, 'system:node:n1', ['system:nodes'], ['digital signature', 'key encipherment', 'client auth']);
    const restarted = bootstrapClientCertificate({ ...o, timeoutMs: 5000 });
    const r = c.client.resource(CertificateSigningRequestKind);
    const csr = await r.get(name);
    await r.updateSubresource('approval', { ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'ByHand' }] } });
    const result = await restarted;
    expect(result.csrName).toBe(name);
    expect((await r.list()).items).toHaveLength(1);
    await c.close();
  });

  it('reports a Failed request, and a bootstrap kubeconfig that is missing', async () => {
    const c = await clusterWithToken();
    const failing: KubeApiClient = {
      server: 'https://x',
      request: async (method) =>
        (method === 'POST'
          ? { metadata: { name: 'n', uid: 'u1' } }
          : {
              metadata: { resourceVersion: '1' },
              items: [{ metadata: { name: 'n', uid: 'u1' }, status: { conditions: [{ type: 'Failed', reason: 'SignerValidationFailure', message: 'nope' }] } }],
            }) as never,
      watch: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true as const, value: undefined }) }) }),
      close: () => undefined,
    };
    await expect(bootstrapClientCertificate({ ...(await options(c)), kube: failing })).rejects.toThrow(
      'certificate signing request failed, reason: SignerValidationFailure, message: nope',
    );
    await expect(bootstrapClientCertificate({ ...(await options(c)), bootstrapKubeconfigPath: join(dir, 'missing') })).rejects.toThrow(
      `unable to load bootstrap kubeconfig: stat ${join(dir, 'missing')}: no such file or directory`,
    );
    await c.close();
  });
});
