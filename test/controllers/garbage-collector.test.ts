import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import { ClusterRoleKind, ConfigMapKind, NamespaceKind, SecretKind } from '../../src/kinds/index.js';
import { loadSnapshot } from '../../src/storage/snapshot.js';
import { statusOf, testCluster, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();
const cms = () => cluster.client.resource(ConfigMapKind);
const secrets = () => cluster.client.resource(SecretKind);

async function owner(name: string) {
  const o = await cms().create({ metadata: { name } });
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: o.metadata!.uid! };
}

const names = async () => (await secrets().list({ namespace: 'default' })).items.map((s) => s.metadata?.name);

describe('garbage collector', () => {
  it('deletes dependents whose only owner is gone (background propagation)', async () => {
    const ref = await owner('boss');
    await secrets().create({ metadata: { name: 'a', ownerReferences: [ref] } });
    await secrets().create({ metadata: { name: 'b', ownerReferences: [ref] } });
    await secrets().create({ metadata: { name: 'free' } });
    await cms().delete('boss');
    await cluster.settle();
    expect(await names()).toEqual(['free']);
  });

  it('keeps a dependent that still has a live owner, dropping the reference to the gone one', async () => {
    const gone = await owner('gone');
    const stays = await owner('stays');
    await secrets().create({ metadata: { name: 'shared', ownerReferences: [gone, stays] } });
    await cms().delete('gone');
    await cluster.settle();
    const s = await secrets().get('shared');
    expect(s.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['stays']);
  });

  it('counts an owner named in another namespace as absent, though an object with its uid exists there', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'elsewhere' } });
    const away = await cms().create({ metadata: { name: 'away', namespace: 'elsewhere' } });
    const boss = await owner('boss');
    const crossNamespace = { apiVersion: 'v1', kind: 'ConfigMap', name: 'away', uid: away.metadata!.uid! };
    await secrets().create({ metadata: { name: 'a', ownerReferences: [boss, crossNamespace] } });
    await cms().delete('boss');
    await cluster.settle();
    expect(await names()).toEqual([]);
    expect((await cms().get('away', { namespace: 'elsewhere' })).metadata?.uid).toBe(away.metadata!.uid);
  });

  it('counts an owner with the same name but another uid as absent', async () => {
    const boss = await owner('boss');
    const old = await owner('recreated');
    await cms().delete('recreated');
    await owner('recreated');
    await secrets().create({ metadata: { name: 'a', ownerReferences: [boss, old] } });
    await cms().delete('boss');
    await cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('leaves a dependent alone when one of its owner references names a kind that is not served', async () => {
    const boss = await owner('boss');
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '2b1c6f0e-0000-4000-8000-000000000001' };
    await secrets().create({ metadata: { name: 'a', ownerReferences: [boss, unknown] } });
    await cms().delete('boss');
    await cluster.settle();
    const a = await secrets().get('a');
    expect(a.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['boss', 'w']);
  });

  it('never collects a cluster-scoped dependent through a reference to a namespaced kind', async () => {
    const boss = await owner('boss');
    const roles = cluster.client.resource(ClusterRoleKind);
    await roles.create({ metadata: { name: 'held-by-configmap', ownerReferences: [boss] } });
    await cms().delete('boss');
    await cluster.settle();
    expect((await roles.get('held-by-configmap')).metadata?.ownerReferences?.map((r) => r.name)).toEqual(['boss']);
  });

  it('orphans dependents with propagationPolicy=Orphan, then lets the owner go', async () => {
    const ref = await owner('boss');
    await secrets().create({ metadata: { name: 'a', ownerReferences: [ref] } });
    await cms().delete('boss', { propagationPolicy: 'Orphan' });
    await cluster.settle();
    expect((await statusOf(() => cms().get('boss'))).code).toBe(404);
    const a = await secrets().get('a');
    expect(a.metadata?.ownerReferences).toBeUndefined();
  });

  it('deletes dependents first with propagationPolicy=Foreground; the owner waits for them', async () => {
    const ref = await owner('boss');
    await secrets().create({ metadata: { name: 'a', ownerReferences: [ref] } });
    await secrets().create({ metadata: { name: 'held', ownerReferences: [ref], finalizers: ['example.com/hold'] } });
    const marked = await cms().delete('boss', { propagationPolicy: 'Foreground' });
    expect((marked as { metadata: { finalizers: string[] } }).metadata.finalizers).toEqual(['foregroundDeletion']);
    await cluster.settle();
    expect(await names()).toEqual(['held']);
    expect((await cms().get('boss')).metadata?.deletionTimestamp).toBeDefined();
    const held = await secrets().get('held');
    await secrets().update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await cluster.settle();
    expect(await names()).toEqual([]);
    expect((await statusOf(() => cms().get('boss'))).code).toBe(404);
  });
});

describe('garbage collector of a cluster started from a snapshot file', () => {
  /** A cluster started from `source`'s state as a file would hold it: no controller state to take over. */
  async function fromFile(source: Cluster): Promise<Cluster> {
    return testCluster({ from: loadSnapshot(JSON.stringify(source.snapshot())) });
  }

  it('finds the dependents of an owner from the snapshot, after more writes than the snapshot has objects', async () => {
    const source = await testCluster();
    const o = await source.client.resource(ConfigMapKind).create({ metadata: { name: 'boss' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: o.metadata!.uid! };
    await source.client.resource(SecretKind).create({ metadata: { name: 'old', ownerReferences: [ref] } });
    await source.settle();
    const c = await fromFile(source);
    try {
      const size = c.snapshot().size;
      // More changes than objects: the index is built while they come, not kept waiting.
      for (let i = 0; i <= size; i++) await c.client.resource(SecretKind).create({ metadata: { name: `new-${i}`, ownerReferences: [ref] } });
      await c.client.resource(SecretKind).create({ metadata: { name: 'free' } });
      await c.client.resource(ConfigMapKind).delete('boss', { namespace: 'default' });
      await c.settle();
      expect((await c.client.resource(SecretKind).list({ namespace: 'default' })).items.map((s) => s.metadata?.name)).toEqual(['free']);
    } finally {
      await c.close();
      await source.close();
    }
  });

  it('lets an owner in foreground deletion go once its last dependent from the snapshot goes', async () => {
    const source = await testCluster();
    const o = await source.client.resource(ConfigMapKind).create({ metadata: { name: 'boss' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'boss', uid: o.metadata!.uid! };
    await source.client.resource(SecretKind).create({ metadata: { name: 'held', ownerReferences: [ref], finalizers: ['example.com/hold'] } });
    await source.client.resource(ConfigMapKind).delete('boss', { namespace: 'default', propagationPolicy: 'Foreground' });
    await source.settle();
    const c = await fromFile(source);
    try {
      await c.settle();
      expect((await c.client.resource(ConfigMapKind).get('boss', { namespace: 'default' })).metadata?.finalizers).toEqual(['foregroundDeletion']);
      const held = await c.client.resource(SecretKind).get('held', { namespace: 'default' });
      await c.client.resource(SecretKind).update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
      await c.settle();
      expect((await statusOf(() => c.client.resource(ConfigMapKind).get('boss', { namespace: 'default' }))).code).toBe(404);
    } finally {
      await c.close();
      await source.close();
    }
  });
});
