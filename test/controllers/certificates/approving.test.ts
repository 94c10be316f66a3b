import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import type { UserInfo } from '../../../src/machinery/request.js';
import { createCsr, decide, getCsr, issued, KUBELET_CLIENT_USAGES, requestFor } from './helpers.js';

const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const BOOTSTRAPPER: UserInfo = { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:authenticated'] };
const NODE: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const NODE_CLIENT_MESSAGE = 'Auto approving kubelet client certificate after SubjectAccessReview.';

const nodeRequest = (node = 'n1') => requestFor({ commonName: `system:node:${node}`, organizations: ['system:nodes'] });

async function bind(cluster: Cluster, role: string, group: string): Promise<void> {
  await cluster.client.resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' }).create({
    metadata: { name: `${role.replace(/:/g, '-')}-${group.replace(/:/g, '-')}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  } as never);
}

const rbacCluster = async () => {
  const c = await createCluster({ clock: Date.parse('2026-06-01T00:00:00Z'), authorization: { modes: ['RBAC'] } });
  await bind(c, 'system:node-bootstrapper', 'system:bootstrappers');
  await bind(c, 'system:node-bootstrapper', 'system:nodes');
  return c;
};

describe('CSR approving controller', () => {
  it('approves a node client request when the requester may create certificatesigningrequests/nodeclient, then it is signed', async () => {
    const c = await rbacCluster();
    await bind(c, 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers');
    await createCsr(c, 'node-csr-1', { request: await nodeRequest(), signerName: KUBELET_CLIENT, usages: KUBELET_CLIENT_USAGES }, BOOTSTRAPPER);
    await c.settle();
    const csr = await getCsr(c, 'node-csr-1');
    expect(csr.status?.conditions).toEqual([
      expect.objectContaining({
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: NODE_CLIENT_MESSAGE,
        lastUpdateTime: '2026-06-01T00:00:00Z',
      }),
    ]);
    expect(issued(csr)!.subject).toBe('O=system:nodes\nCN=system:node:n1');
    await c.close();
  });

  it('leaves the request pending without the permission', async () => {
    const c = await rbacCluster();
    await createCsr(c, 'node-csr-1', { request: await nodeRequest(), signerName: KUBELET_CLIENT, usages: KUBELET_CLIENT_USAGES }, BOOTSTRAPPER);
    await c.settle();
    const csr = await getCsr(c, 'node-csr-1');
    expect(csr.status?.conditions).toBeUndefined();
    expect(csr.status?.certificate).toBeUndefined();
    await c.close();
  });

  it('approves a node renewing its own certificate with selfnodeclient, not one asking for another node', async () => {
    const c = await rbacCluster();
    await bind(c, 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes');
    await createCsr(c, 'self', { request: await nodeRequest('n1'), signerName: KUBELET_CLIENT, usages: ['digital signature', 'client auth'] }, NODE);
    await createCsr(c, 'other', { request: await nodeRequest('n2'), signerName: KUBELET_CLIENT, usages: KUBELET_CLIENT_USAGES }, NODE);
    await c.settle();
    expect((await getCsr(c, 'self')).status?.conditions?.[0]).toMatchObject({
      type: 'Approved',
      reason: 'AutoApproved',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    });
    expect((await getCsr(c, 'other')).status?.conditions).toBeUndefined();
    await c.close();
  });

  it.each([
    ['another signer', 'kubernetes.io/kube-apiserver-client', { commonName: 'system:node:n1', organizations: ['system:nodes'] }, KUBELET_CLIENT_USAGES],
    [
      'server auth among the usages',
      KUBELET_CLIENT,
      { commonName: 'system:node:n1', organizations: ['system:nodes'] },
      [...KUBELET_CLIENT_USAGES, 'server auth'],
    ],
    ['only client auth', KUBELET_CLIENT, { commonName: 'system:node:n1', organizations: ['system:nodes'] }, ['client auth']],
    ['a second organization', KUBELET_CLIENT, { commonName: 'system:node:n1', organizations: ['system:nodes', 'system:masters'] }, KUBELET_CLIENT_USAGES],
    ['a DNS SAN', KUBELET_CLIENT, { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1'] }, KUBELET_CLIENT_USAGES],
    ['a common name that is no node', KUBELET_CLIENT, { commonName: 'admin', organizations: ['system:nodes'] }, KUBELET_CLIENT_USAGES],
  ])('does not approve a request with %s, even for an allowed requester', async (_what, signerName, subject, usages) => {
    // AlwaysAllow: every SubjectAccessReview is allowed, so only the recognizers decide.
    const c = await createCluster();
    await createCsr(c, 'x', { request: await requestFor(subject), signerName, usages }, BOOTSTRAPPER);
    await c.settle();
    expect((await getCsr(c, 'x')).status?.conditions?.some((x) => x.type === 'Approved')).not.toBe(true);
    await c.close();
  });

  it('never approves a request already denied, and the signer never signs it', async () => {
    // Denied while the requester may not yet have it approved; then the permission comes.
    const c = await rbacCluster();
    await createCsr(c, 'denied', { request: await nodeRequest(), signerName: KUBELET_CLIENT, usages: KUBELET_CLIENT_USAGES }, BOOTSTRAPPER);
    await c.settle();
    await decide(c, 'denied', 'Denied', 'NotThisOne');
    await bind(c, 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers');
    await c.settle();
    const csr = await getCsr(c, 'denied');
    expect(csr.status?.conditions?.map((x) => x.type)).toEqual(['Denied']);
    expect(csr.status?.certificate).toBeUndefined();
    await c.close();
  });
});
