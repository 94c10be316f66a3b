import { describe, expect, it } from 'vitest';
import { ConfigMapKind, NamespaceKind, ServiceAccountKind } from '../../src/kinds/index.js';
import { statusOf, testCluster, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();

const namespaces = () => cluster.client.resource(NamespaceKind);

describe('namespaces', () => {
  it('start with default, kube-system, kube-public and kube-node-lease, each with a default ServiceAccount', async () => {
    const list = await namespaces().list();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const sa = await cluster.client.resource(ServiceAccountKind).get('default', { namespace: 'kube-system' });
    expect(sa.metadata?.name).toBe('default');
  });

  it('are created Active with the kubernetes finalizer and the metadata.name label', async () => {
    const ns = await namespaces().create({ metadata: { name: 'team' }, status: { phase: 'Terminating' } });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'team' });
  });

  it('need DNS-label names', async () => {
    const s = await statusOf(() => namespaces().create({ metadata: { name: 'a.b' } }));
    expect(s.code).toBe(422);
    expect(s.message).toBe('Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots');
  });

  it('deletion marks the namespace Terminating, refuses new content, deletes what it contains, then removes it', async () => {
    await namespaces().create({ metadata: { name: 'team' } });
    await cluster.settle();
    const cms = cluster.client.resource(ConfigMapKind);
    await cms.create({ metadata: { name: 'a' } }, { namespace: 'team' });
    await cms.create({ metadata: { name: 'held', finalizers: ['example.com/x'] } }, { namespace: 'team' });
    const marked = await namespaces().delete('team');
    expect(marked).toMatchObject({ metadata: { name: 'team', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } });
    expect((marked as { metadata: Record<string, unknown> }).metadata).not.toHaveProperty('deletionGracePeriodSeconds');

    const refused = await statusOf(() => cms.create({ metadata: { name: 'late' } }, { namespace: 'team' }));
    expect(refused).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated',
      details: {
        name: 'late',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }],
      },
    });

    await cluster.settle();
    const waiting = await namespaces().get('team');
    const remaining = waiting.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
    expect(remaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps has 1 resource instances',
    });
    expect((await cms.list({ namespace: 'team' })).items.map((c) => c.metadata?.name)).toEqual(['held']);

    const held = await cms.get('held', { namespace: 'team' });
    await cms.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await cluster.settle();
    expect((await statusOf(() => namespaces().get('team'))).code).toBe(404);
  });

  it('default, kube-system and kube-public may not be deleted', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const s = await statusOf(() => namespaces().delete(name));
      expect(s).toMatchObject({ code: 403, reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted` });
    }
  });

  it('spec.finalizers change only through /finalize', async () => {
    const ns = await namespaces().create({ metadata: { name: 'team' } });
    const viaPut = await namespaces().update({ ...ns, spec: { finalizers: [] } });
    expect(viaPut.spec?.finalizers).toEqual(['kubernetes']);
    const bad = await statusOf(() => namespaces().updateSubresource('finalize', { ...ns, spec: { finalizers: ['nope'] } }));
    expect(bad.message).toContain('spec.finalizers[0]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified');
    const viaFinalize = await namespaces().updateSubresource('finalize', { ...ns, spec: { finalizers: ['example.com/f'] } });
    expect(viaFinalize.spec?.finalizers).toEqual(['example.com/f']);
  });

  it('with a deletion delay, a terminating namespace keeps its content for its clients until the controller starts; settle() does not wait for the delay', async () => {
    // An hour: a settle() that waited for the timer would time the test out.
    const delayed = await testCluster({ namespaceDeletionDelayMs: 3_600_000 });
    try {
      const nss = delayed.client.resource(NamespaceKind);
      const cms = delayed.client.resource(ConfigMapKind);
      await nss.create({ metadata: { name: 'app' } });
      await cms.create({ metadata: { name: 'one' } }, { namespace: 'app' });
      await cms.create({ metadata: { name: 'two' } }, { namespace: 'app' });
      await nss.delete('app');
      // Several turns of the event loop: without the delay the controller would have emptied it by now.
      for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
      expect((await nss.get('app')).status?.phase).toBe('Terminating');
      // What `kubectl delete -f` does after deleting the Namespace of a manifest: delete its objects itself.
      expect(await cms.delete('one', { namespace: 'app' })).toMatchObject({ kind: 'Status', status: 'Success' });
      expect((await cms.list({ namespace: 'app' })).items.map((c) => c.metadata?.name)).toEqual(['two']);
      await delayed.settle();
      expect((await cms.list({ namespace: 'app' })).items).toEqual([]);
      expect((await statusOf(() => nss.get('app'))).code).toBe(404);
    } finally {
      await delayed.close();
    }
  });

  it('without a delay (the default), the controller empties a terminating namespace right after the delete answers', async () => {
    const cms = cluster.client.resource(ConfigMapKind);
    await namespaces().create({ metadata: { name: 'app' } });
    await cms.create({ metadata: { name: 'one' } }, { namespace: 'app' });
    await namespaces().delete('app');
    await cluster.settle();
    expect((await statusOf(() => namespaces().get('app'))).code).toBe(404);
  });
});
