import { describe, expect, it } from 'vitest';
import type { ClusterOptions } from '../../src/cluster.js';
import { ConfigMapKind, PodKind, ServiceAccountKind } from '../../src/kinds/index.js';
import type { Pod } from '../../src/kinds/core/pod.js';
import { statusOf, testCluster } from '../support/cluster.js';

const NS = { namespace: 'default' };
const TOKEN_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

function pod(name = 'p'): Pod {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

async function clusterWith(admission: ClusterOptions['admission']) {
  const cluster = await testCluster({ admission });
  await cluster.settle();
  return cluster;
}

describe('admission plugins per cluster', () => {
  it('mounts the API token and names the default account with ServiceAccount on, and does neither with it off', async () => {
    const on = await clusterWith(undefined);
    const admitted = await on.client.resource(PodKind).create(pod(), NS);
    expect(admitted.spec?.serviceAccountName).toBe('default');
    expect(admitted.spec?.volumes?.some((v) => v.name.startsWith('kube-api-access-'))).toBe(true);
    expect(admitted.spec?.containers[0]?.volumeMounts?.map((m) => m.mountPath)).toEqual([TOKEN_MOUNT]);

    const off = await clusterWith({ disable: ['ServiceAccount'] });
    const plain = await off.client.resource(PodKind).create(pod(), NS);
    expect(plain.spec?.serviceAccountName).toBeUndefined();
    expect(plain.spec?.volumes).toBeUndefined();
    expect(plain.spec?.containers[0]?.volumeMounts).toBeUndefined();
    // A missing account is no longer refused either.
    const named = await off.client.resource(PodKind).create({ ...pod('q'), spec: { ...pod().spec!, serviceAccountName: 'ghost' } }, NS);
    expect(named.spec?.serviceAccountName).toBe('ghost');
    await Promise.all([on.close(), off.close()]);
  });

  it('adds the default tolerations and resolves the priority only while DefaultTolerationSeconds and Priority are on', async () => {
    const on = await clusterWith(undefined);
    const admitted = await on.client.resource(PodKind).create(pod(), NS);
    expect(admitted.spec?.tolerations?.map((t) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    expect(admitted.spec?.priority).toBe(0);

    const off = await clusterWith({ disable: ['DefaultTolerationSeconds', 'Priority'] });
    const plain = await off.client.resource(PodKind).create(pod(), NS);
    expect(plain.spec?.tolerations).toBeUndefined();
    expect(plain.spec?.priority).toBeUndefined();
    await Promise.all([on.close(), off.close()]);
  });

  it('creates in a missing namespace without NamespaceLifecycle, as kube-apiserver does', async () => {
    const on = await clusterWith(undefined);
    const refused = await statusOf(() => on.client.resource(ConfigMapKind).create({ metadata: { name: 'c' } }, { namespace: 'nowhere' }));
    expect(refused).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found' });

    const off = await clusterWith({ disable: ['NamespaceLifecycle'] });
    const stored = await off.client.resource(ConfigMapKind).create({ metadata: { name: 'c' } }, { namespace: 'nowhere' });
    expect(stored.metadata?.namespace).toBe('nowhere');
    // A pod there still needs its service account, which a missing namespace does not have.
    const pod403 = await statusOf(() => off.client.resource(PodKind).create(pod(), { namespace: 'nowhere' }));
    expect(pod403).toMatchObject({
      code: 403,
      message: 'pods "p" is forbidden: error looking up service account nowhere/default: serviceaccount "default" not found',
    });
    // With ServiceAccount off too, the pod is stored.
    const bare = await clusterWith({ disable: ['NamespaceLifecycle', 'ServiceAccount'] });
    expect((await bare.client.resource(PodKind).create(pod(), { namespace: 'nowhere' })).metadata?.namespace).toBe('nowhere');
    await Promise.all([on.close(), off.close(), bare.close()]);
  });

  it('keeps admitting on update: DefaultTolerationSeconds adds what an update dropped', async () => {
    const cluster = await clusterWith(undefined);
    const pods = cluster.client.resource(PodKind);
    const created = await pods.create(pod(), NS);
    const updated = await pods.update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } }, spec: { ...created.spec!, tolerations: [] } }, NS);
    expect(updated.spec?.tolerations?.map((t) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    await cluster.close();
  });

  it('does not run ServiceAccount for other kinds', async () => {
    const cluster = await clusterWith(undefined);
    const sa = await cluster.client.resource(ServiceAccountKind).create({ metadata: { name: 'robot' } }, NS);
    expect(sa.metadata?.name).toBe('robot');
    await cluster.close();
  });
});
