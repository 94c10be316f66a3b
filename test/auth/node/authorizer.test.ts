import { beforeEach, describe, expect, it } from 'vitest';
import { createNodeAuthorizer, nodeIdentity } from '../../../src/auth/node/index.js';
import { persistentVolumeSecrets, podReferences } from '../../../src/auth/node/pod-references.js';
import type { AuthorizationAttributes, Authorizer } from '../../../src/machinery/auth.js';
import { MemoryStorage } from '../../../src/storage/memory.js';

const node1 = { username: 'system:node:node1', groups: ['system:nodes', 'system:authenticated'] };
const ask = (verb: string, resource: string, more: Partial<AuthorizationAttributes> = {}, user = node1): AuthorizationAttributes => ({
  user,
  verb,
  resourceRequest: true,
  apiGroup: '',
  resource,
  ...more,
});

let storage: MemoryStorage;
let authorizer: Authorizer;
const put = (bucket: string, namespace: string, name: string, value: Record<string, unknown>) =>
  storage.create({ bucket, namespace, name }, { metadata: { name, ...(namespace ? { namespace } : {}) }, ...value });

beforeEach(async () => {
  storage = new MemoryStorage();
  authorizer = createNodeAuthorizer(storage);
  await put('core/pods', 'ns', 'web', {
    spec: {
      nodeName: 'node1',
      serviceAccountName: 'web-sa',
      imagePullSecrets: [{ name: 'pull' }],
      containers: [
        { name: 'c', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-cm' } }] },
      ],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'cache', ephemeral: { volumeClaimTemplate: { spec: {} } } },
        { name: 'cfg', projected: { sources: [{ configMap: { name: 'projected-cm' } }, { secret: { name: 'projected-secret' } }] } },
      ],
      resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
    },
  });
  await put('core/pods', 'ns', 'elsewhere', { spec: { nodeName: 'node2', volumes: [{ name: 's', secret: { secretName: 'other' } }] } });
  await put('core/pods', 'ns', 'pending', { spec: { volumes: [{ name: 's', secret: { secretName: 'unscheduled' } }] } });
  await put('core/persistentvolumes', '', 'pv-data', {
    spec: { claimRef: { namespace: 'ns', name: 'data' }, csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret', namespace: 'storage' } } },
  });
  await put('core/persistentvolumes', '', 'pv-other', { spec: { claimRef: { namespace: 'ns', name: 'nope' } } });
  await put('storage.k8s.io/volumeattachments', '', 'va1', { spec: { nodeName: 'node1' } });
});

describe('Node authorizer', () => {
  it('recognizes nodes by name prefix and group, and has no opinion on anyone else', async () => {
    expect(nodeIdentity(node1)).toBe('node1');
    expect(nodeIdentity({ username: 'system:node:node1', groups: [] })).toBeUndefined();
    expect(nodeIdentity({ username: 'alice', groups: ['system:nodes'] })).toBeUndefined();
    expect(await authorizer.authorize(ask('get', 'secrets', { namespace: 'ns', name: 'pull' }, { username: 'alice', groups: [] }))).toEqual({
      decision: 'NoOpinion',
      reason: '',
    });
    expect(await authorizer.authorize(ask('get', 'pods', {}, { username: 'system:node:', groups: ['system:nodes'] }))).toEqual({
      decision: 'NoOpinion',
      reason: 'unknown node for user "system:node:"',
    });
  });

  it('lets a node read the secrets and config maps its pods use, and no others', async () => {
    for (const name of ['pull', 'env-secret', 'projected-secret']) {
      expect((await authorizer.authorize(ask('get', 'secrets', { namespace: 'ns', name }))).decision).toBe('Allow');
    }
    expect((await authorizer.authorize(ask('watch', 'configmaps', { namespace: 'ns', name: 'env-cm' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'configmaps', { namespace: 'ns', name: 'projected-cm' }))).decision).toBe('Allow');
    const refused = (name: string) => authorizer.authorize(ask('get', 'secrets', { namespace: 'ns', name }));
    expect(await refused('other')).toEqual({ decision: 'NoOpinion', reason: "no relationship found between node 'node1' and this object" });
    expect((await refused('unscheduled')).decision).toBe('NoOpinion');
    expect(await authorizer.authorize(ask('list', 'secrets', { namespace: 'ns' }))).toEqual({ decision: 'NoOpinion', reason: 'No Object name found' });
    expect(await authorizer.authorize(ask('delete', 'secrets', { namespace: 'ns', name: 'pull' }))).toEqual({
      decision: 'NoOpinion',
      reason: 'can only read resources of this type',
    });
    expect(await authorizer.authorize(ask('get', 'secrets', { name: 'pull' }))).toEqual({
      decision: 'NoOpinion',
      reason: 'can only read namespaced object of this type',
    });
  });

  it('follows claims to volumes and the secrets volumes need', async () => {
    expect((await authorizer.authorize(ask('get', 'persistentvolumeclaims', { namespace: 'ns', name: 'data' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'persistentvolumeclaims', { namespace: 'ns', name: 'web-cache' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('patch', 'persistentvolumeclaims', { namespace: 'ns', name: 'data', subresource: 'status' }))).decision).toBe(
      'Allow',
    );
    expect(await authorizer.authorize(ask('list', 'persistentvolumeclaims', { namespace: 'ns' }))).toEqual({
      decision: 'NoOpinion',
      reason: 'can only get individual resources of this type',
    });
    expect((await authorizer.authorize(ask('get', 'persistentvolumes', { name: 'pv-data' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'persistentvolumes', { name: 'pv-other' }))).decision).toBe('NoOpinion');
    expect((await authorizer.authorize(ask('get', 'secrets', { namespace: 'storage', name: 'csi-secret' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'resourceclaims', { apiGroup: 'resource.k8s.io', namespace: 'ns', name: 'gpu-claim' }))).decision).toBe(
      'Allow',
    );
    expect((await authorizer.authorize(ask('get', 'volumeattachments', { apiGroup: 'storage.k8s.io', name: 'va1' }))).decision).toBe('Allow');
  });

  it('creates tokens only for the service accounts of its pods', async () => {
    expect((await authorizer.authorize(ask('create', 'serviceaccounts', { namespace: 'ns', name: 'web-sa', subresource: 'token' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('create', 'serviceaccounts', { namespace: 'ns', name: 'default', subresource: 'token' }))).decision).toBe(
      'NoOpinion',
    );
    expect(await authorizer.authorize(ask('get', 'serviceaccounts', { namespace: 'ns', name: 'web-sa' }))).toEqual({
      decision: 'NoOpinion',
      reason: 'can only create tokens for individual service accounts',
    });
  });

  it('keeps its own lease, CSINode and Node; reads pods by its node selector', async () => {
    const lease = (verb: string, namespace: string, name?: string) =>
      authorizer.authorize(ask(verb, 'leases', { apiGroup: 'coordination.k8s.io', namespace, name }));
    expect((await lease('update', 'kube-node-lease', 'node1')).decision).toBe('Allow');
    expect((await lease('create', 'kube-node-lease')).decision).toBe('Allow');
    expect(await lease('update', 'kube-node-lease', 'node2')).toEqual({
      decision: 'NoOpinion',
      reason: 'can only access node lease with the same name as the requesting node',
    });
    expect(await lease('get', 'default', 'node1')).toEqual({
      decision: 'NoOpinion',
      reason: 'can only access leases in the "kube-node-lease" system namespace',
    });
    expect((await authorizer.authorize(ask('get', 'csinodes', { apiGroup: 'storage.k8s.io', name: 'node2' }))).reason).toBe(
      'can only access CSINode with the same name as the requesting node',
    );
    expect((await authorizer.authorize(ask('get', 'nodes', { name: 'node1' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'nodes', { name: 'node2' }))).reason).toBe("node 'node1' cannot read 'node2', only its own Node object");
    expect((await authorizer.authorize(ask('list', 'nodes'))).reason).toBe("node 'node1' cannot read all nodes, only its own Node object");
    expect((await authorizer.authorize(ask('list', 'pods', { fieldSelector: 'spec.nodeName=node1' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('list', 'pods', { fieldSelector: 'spec.nodeName=node2' }))).reason).toBe(
      'can only list/watch pods with spec.nodeName field selector',
    );
    expect((await authorizer.authorize(ask('get', 'pods', { namespace: 'ns', name: 'web' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('get', 'pods', { namespace: 'ns', name: 'elsewhere' }))).decision).toBe('NoOpinion');
    expect((await authorizer.authorize(ask('create', 'pods', { namespace: 'ns', subresource: 'eviction', name: 'web' }))).decision).toBe('Allow');
  });

  it('allows the static node rules for everything else, and lists no rules for nodes', async () => {
    expect((await authorizer.authorize(ask('create', 'tokenreviews', { apiGroup: 'authentication.k8s.io' }))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('list', 'services'))).decision).toBe('Allow');
    expect((await authorizer.authorize(ask('delete', 'services', { namespace: 'ns', name: 's' }))).decision).toBe('NoOpinion');
    expect(await authorizer.rulesFor(node1, 'ns')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'node authorizer does not support user rule resolution',
    });
    expect((await authorizer.rulesFor({ username: 'alice', groups: [] }, 'ns')).incomplete).toBe(false);
  });
});

describe('pod and volume references', () => {
  it('never throws on malformed objects', () => {
    for (const bad of [{}, { spec: null }, { spec: { volumes: 'x', containers: [null, 3] } }, { spec: { volumes: [{ projected: { sources: [null] } }] } }]) {
      expect(podReferences(bad as Record<string, unknown>).secrets.size).toBe(0);
      expect(persistentVolumeSecrets(bad as Record<string, unknown>).size).toBe(0);
    }
  });
});
