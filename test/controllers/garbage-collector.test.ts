import { describe, expect, it } from 'vitest';
import { ConfigMapKind, SecretKind } from '../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

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
