import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../src/cluster.js';
import { ClusterRoleKind, ConfigMapKind, CustomResourceDefinitionKind, NamespaceKind, SecretKind, ServiceAccountKind } from '../src/kinds/index.js';
import type { WatchEvent } from '../src/machinery/request.js';
import { MemoryStorage } from '../src/storage/memory.js';
import { statusOf, testCluster } from './support/cluster.js';

const open: Cluster[] = [];
async function cluster(...args: Parameters<typeof testCluster>): Promise<Cluster> {
  const c = await testCluster(...args);
  open.push(c);
  return c;
}
async function fork(source: Cluster): Promise<Cluster> {
  const c = await source.fork();
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const widgets = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
const widgetResource = { group: 'example.com', version: 'v1', resource: 'widgets' };

describe('cluster.fork()', () => {
  it('starts with the same objects, uids, times and resourceVersions, and changes leak neither way', async () => {
    const source = await cluster();
    const cms = source.client.resource(ConfigMapKind);
    const a = await cms.create({ metadata: { name: 'a' }, data: { v: '1' } });
    const copy = await fork(source);
    const forked = copy.client.resource(ConfigMapKind);
    expect(await forked.get('a', { namespace: 'default' })).toEqual(a);

    await forked.update({ ...a, data: { v: 'fork' } });
    await forked.create({ metadata: { name: 'only-in-fork' } });
    await cms.create({ metadata: { name: 'only-in-source' } });
    expect((await cms.get('a', { namespace: 'default' })).data).toEqual({ v: '1' });
    expect((await cms.list({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['a', 'only-in-source']);
    expect((await forked.list({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['a', 'only-in-fork']);
  });

  it('continues the resourceVersion counter and keeps the clock where the source was', async () => {
    const source = await cluster();
    source.clock.advance(60_000);
    const revision = Number((await source.client.resource(ConfigMapKind).list()).metadata.resourceVersion);
    const copy = await fork(source);
    expect(copy.clock.now()).toBe(source.clock.now());
    const created = await copy.client.resource(ConfigMapKind).create({ metadata: { name: 'b' } });
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(revision);
    expect(created.metadata?.creationTimestamp).toBe('2026-01-01T00:01:00Z');
  });

  it('runs the controllers over the objects it started with: namespace deletion and garbage collection', async () => {
    const source = await cluster();
    await source.client.resource(NamespaceKind).create({ metadata: { name: 'doomed' } });
    await source.client.resource(ConfigMapKind).create({ metadata: { name: 'inside', namespace: 'doomed' } });
    const owner = await source.client.resource(ConfigMapKind).create({ metadata: { name: 'owner' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! };
    await source.client.resource(ConfigMapKind).create({ metadata: { name: 'dependent', ownerReferences: [ref] } });
    await source.settle();
    const copy = await fork(source);
    const forked = copy.client.resource(ConfigMapKind);

    await copy.client.resource(NamespaceKind).delete('doomed');
    await forked.delete('owner', { namespace: 'default' });
    await copy.settle();
    expect((await statusOf(() => copy.client.resource(NamespaceKind).get('doomed'))).code).toBe(404);
    expect((await statusOf(() => forked.get('dependent', { namespace: 'default' }))).code).toBe(404);
    // The source still has all of it.
    expect((await source.client.resource(ConfigMapKind).get('inside', { namespace: 'doomed' })).metadata?.name).toBe('inside');
    expect((await source.client.resource(ConfigMapKind).get('dependent', { namespace: 'default' })).metadata?.name).toBe('dependent');
  });

  it('keeps the service account signing key: a token Secret of the source authenticates in the fork', async () => {
    const source = await cluster();
    await source.client.resource(SecretKind).create({
      metadata: { name: 'default-token', annotations: { 'kubernetes.io/service-account.name': 'default' } },
      type: 'kubernetes.io/service-account-token',
    });
    await source.settle();
    const secret = await source.client.resource(SecretKind).get('default-token', { namespace: 'default' });
    const token = Buffer.from(secret.data!.token!, 'base64').toString();
    const copy = await fork(source);
    const found = await copy.serviceAccountTokens.authenticator.authenticateToken(token);
    expect(found?.user.username).toBe('system:serviceaccount:default:default');
    // The fork's own service account controller works too.
    await copy.client.resource(NamespaceKind).create({ metadata: { name: 'new' } });
    await copy.settle();
    expect((await copy.client.resource(ServiceAccountKind).get('default', { namespace: 'new' })).metadata?.name).toBe('default');
  });

  it('serves the custom resources of the definitions it started with', async () => {
    const source = await cluster();
    await source.client.resource(CustomResourceDefinitionKind).create(widgets as never);
    await source.settle();
    const copy = await fork(source);
    const created = await copy.client
      .resource(widgetResource)
      .create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } });
    expect(created.metadata?.name).toBe('w');
    expect((await statusOf(() => source.client.resource(widgetResource).get('w', { namespace: 'default' }))).code).toBe(404);
  });

  it('is refused for a cluster on a storage of its own, and after close', async () => {
    const own = await cluster({ storage: new MemoryStorage() });
    expect(() => own.snapshot()).toThrow(/snapshots need the in-memory storage/);
    await expect(own.fork()).rejects.toThrow(/snapshots need the in-memory storage/);
    const snapshot = (await cluster()).snapshot();
    await expect(testCluster({ storage: new MemoryStorage(), from: snapshot })).rejects.toThrow(/snapshots need the in-memory storage/);
    const closed = await testCluster();
    await closed.close();
    expect(() => closed.snapshot()).toThrow('the cluster is closed');
  });
});

describe('cluster.reset(snapshot)', () => {
  it('puts back every object as it was, with its uid, time and resourceVersion', async () => {
    const c = await cluster();
    const cms = c.client.resource(ConfigMapKind);
    const kept = await cms.create({ metadata: { name: 'kept' }, data: { v: '1' } });
    const doomed = await cms.create({ metadata: { name: 'doomed' } });
    const snapshot = c.snapshot();
    await cms.update({ ...kept, data: { v: '2' } });
    await cms.delete('doomed', { namespace: 'default' });
    await cms.create({ metadata: { name: 'new' } });
    await c.reset(snapshot);
    expect(await cms.get('kept', { namespace: 'default' })).toEqual(kept);
    expect(await cms.get('doomed', { namespace: 'default' })).toEqual(doomed);
    expect((await statusOf(() => cms.get('new', { namespace: 'default' }))).code).toBe(404);
    // The restored objects can be written again (their resourceVersion is the one stored).
    expect((await cms.update({ ...kept, data: { v: '3' } })).data).toEqual({ v: '3' });
  });

  it('moves the resourceVersion on (never back) and answers 410 Expired to a watch resumed from before', async () => {
    const c = await cluster();
    const cms = c.client.resource(ConfigMapKind);
    const snapshot = c.snapshot();
    const watch = await cms.watch({ namespace: 'default' });
    const made = await cms.create({ metadata: { name: 'later' } });
    const before = Number(made.metadata?.resourceVersion);
    await c.reset(snapshot);

    // The open watch ended after what it had already been sent.
    const seen: WatchEvent[] = [];
    for await (const event of watch) seen.push(event);
    expect(seen.map((e) => e.type)).toEqual(['ADDED']);
    expect(c.activeWatchers).toBe(0);

    const list = await cms.list({ namespace: 'default' });
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(before);
    const resumed: WatchEvent[] = [];
    for await (const event of await cms.watch({ namespace: 'default', resourceVersion: String(before) })) resumed.push(event);
    expect(resumed).toEqual([{ type: 'ERROR', object: expect.objectContaining({ code: 410, reason: 'Expired' }) }]);
    expect((await statusOf(() => cms.list({ namespace: 'default', resourceVersion: String(before), resourceVersionMatch: 'Exact' }))).code).toBe(410);

    // A watch from the new list's resourceVersion sees what comes next.
    const fresh = await cms.watch({ namespace: 'default', resourceVersion: list.metadata.resourceVersion });
    await cms.create({ metadata: { name: 'after-reset' } });
    for await (const event of fresh) {
      expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-reset' } } });
      break;
    }
  });

  it('ends HTTP watch streams, as a restored API server drops its watches', async () => {
    const c = await cluster();
    const snapshot = c.snapshot();
    const res = await c.fetch(new Request('http://cluster/api/v1/namespaces/default/configmaps?watch=1'));
    expect(res.status).toBe(200);
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'seen' } });
    await c.reset(snapshot);
    const lines = (await res.text()).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['ADDED']);
  });

  it('answers 410 Expired to a continue token from before the reset', async () => {
    const c = await cluster();
    const cms = c.client.resource(ConfigMapKind);
    for (const name of ['one', 'two']) await cms.create({ metadata: { name } });
    const snapshot = c.snapshot();
    const page = await cms.list({ namespace: 'default', limit: 1 });
    await c.reset(snapshot);
    expect((await statusOf(() => cms.list({ namespace: 'default', limit: 1, continue: page.metadata.continue }))).code).toBe(410);
  });

  it('serves exactly the custom resources the snapshot defines', async () => {
    const c = await cluster();
    const before = c.snapshot();
    await c.client.resource(CustomResourceDefinitionKind).create(widgets as never);
    await c.settle();
    await c.client.resource(widgetResource).create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } });
    const withWidgets = c.snapshot();
    await c.reset(before);
    expect((await statusOf(() => c.client.resource(widgetResource).list())).code).toBe(404);
    await c.reset(withWidgets);
    expect((await c.client.resource(widgetResource).list()).items.map((w) => w.metadata?.name)).toEqual(['w']);
  });

  it('lets the controllers forget what the reset took away and follow what it put back', async () => {
    const c = await cluster();
    const owner = await c.client.resource(ConfigMapKind).create({ metadata: { name: 'owner' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! };
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'dependent', ownerReferences: [ref] } });
    await c.settle();
    const snapshot = c.snapshot();
    await c.client.resource(ConfigMapKind).delete('owner', { namespace: 'default' });
    await c.settle();
    expect((await statusOf(() => c.client.resource(ConfigMapKind).get('dependent', { namespace: 'default' }))).code).toBe(404);
    await c.reset(snapshot);
    // Both are back, and the garbage collector knows the owner again.
    await c.client.resource(ConfigMapKind).delete('owner', { namespace: 'default' });
    await c.settle();
    expect((await statusOf(() => c.client.resource(ConfigMapKind).get('dependent', { namespace: 'default' }))).code).toBe(404);
  });

  it('refuses what is not a snapshot, changing nothing', async () => {
    const c = await cluster();
    await c.client.resource(ConfigMapKind).create({ metadata: { name: 'stays' } });
    await expect(c.reset({} as never)).rejects.toThrow(/not a ClusterSnapshot/);
    expect((await c.client.resource(ConfigMapKind).get('stays', { namespace: 'default' })).metadata?.name).toBe('stays');
  });
});

/** A ClusterRole the built-in `view` role aggregates. */
const toView = (name: string, resource: string) => ({
  metadata: { name, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
  rules: [{ apiGroups: ['example.com'], resources: [resource], verbs: ['get'] }],
});
const viewResources = async (c: Cluster) =>
  ((await c.client.resource(ClusterRoleKind).get('view')).rules ?? []).flatMap((r) => (r.apiGroups?.includes('example.com') ? (r.resources ?? []) : []));

describe('cluster.fork(): the controllers of a fork', () => {
  it("follow the fork's own writes with what it started from: aggregation, and garbage collection of owners from before and after the fork", async () => {
    const source = await cluster();
    const cms = source.client.resource(ConfigMapKind);
    const owner = await cms.create({ metadata: { name: 'owner' } });
    const ref = (o: typeof owner) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata!.name!, uid: o.metadata!.uid! });
    await cms.create({ metadata: { name: 'old-dependent', ownerReferences: [ref(owner)] } });
    await source.settle();
    const copy = await fork(source);
    const forked = copy.client.resource(ConfigMapKind);

    await copy.client.resource(ClusterRoleKind).create(toView('widget-viewer', 'widgets'));
    await forked.create({ metadata: { name: 'new-dependent', ownerReferences: [ref(owner)] } });
    const newOwner = await forked.create({ metadata: { name: 'new-owner' } });
    await forked.create({ metadata: { name: 'dependent-of-new', ownerReferences: [ref(newOwner)] } });
    await forked.delete('owner', { namespace: 'default' });
    await forked.delete('new-owner', { namespace: 'default' });
    await copy.settle();

    expect(await viewResources(copy)).toEqual(['widgets']);
    expect((await forked.list({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual([]);
    // The source saw none of it.
    expect(await viewResources(source)).toEqual([]);
    expect((await cms.list({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['old-dependent', 'owner']);
  });

  it('let an owner waiting in foreground deletion in a settled source go once its last dependent goes', async () => {
    const source = await cluster();
    const cms = source.client.resource(ConfigMapKind);
    const owner = await cms.create({ metadata: { name: 'owner' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! };
    await cms.create({ metadata: { name: 'held', ownerReferences: [ref], finalizers: ['example.com/hold'] } });
    await cms.delete('owner', { namespace: 'default', propagationPolicy: 'Foreground' });
    await source.settle();
    const copy = await fork(source);
    const forked = copy.client.resource(ConfigMapKind);
    const held = await forked.get('held', { namespace: 'default' });
    await forked.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    await copy.settle();
    expect((await forked.list({ namespace: 'default' })).items).toEqual([]);
    expect((await cms.list({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['held', 'owner']);
  });

  it('do the work the source had not done yet when it forked', async () => {
    const source = await cluster();
    await source.client.resource(NamespaceKind).create({ metadata: { name: 'fresh' } });
    await source.client.resource(ClusterRoleKind).create(toView('gadget-viewer', 'gadgets'));
    // No settle: the source's controllers have work queued.
    const copy = await fork(source);
    await copy.settle();
    expect((await copy.client.resource(ServiceAccountKind).get('default', { namespace: 'fresh' })).metadata?.name).toBe('default');
    expect(await viewResources(copy)).toEqual(['gadgets']);
  });

  it("share the source's resolved built-in kinds, but serve custom resources of their own", async () => {
    const source = await cluster();
    await source.client.resource(CustomResourceDefinitionKind).create(widgets as never);
    await source.settle();
    const copy = await fork(source);
    expect(copy.registry.lookupResource('', 'configmaps')).toBe(source.registry.lookupResource('', 'configmaps'));
    const served = copy.registry.lookupResource('example.com', 'widgets');
    expect(served).toBeDefined();
    expect(served).not.toBe(source.registry.lookupResource('example.com', 'widgets'));

    await copy.client.resource(CustomResourceDefinitionKind).delete('widgets.example.com');
    await copy.settle();
    expect(copy.registry.lookupResource('example.com', 'widgets')).toBeUndefined();
    expect((await statusOf(() => copy.client.resource(widgetResource).list())).code).toBe(404);
    expect((await source.client.resource(widgetResource).list()).items).toEqual([]);
    // A fork of the fork starts with what the fork has.
    const grandchild = await fork(copy);
    expect(grandchild.registry.lookupResource('example.com', 'widgets')).toBeUndefined();
    expect(grandchild.registry.lookupResource('', 'configmaps')).toBe(source.registry.lookupResource('', 'configmaps'));
  });

  it('of a cluster encrypting at rest see the objects decrypted', async () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const encryption = {
      apiVersion: 'apiserver.config.k8s.io/v1' as const,
      kind: 'EncryptionConfiguration' as const,
      resources: [{ resources: ['configmaps'], providers: [{ aescbc: { keys: [{ name: 'k', secret: key }] } }] }],
    };
    const source = await cluster({ encryption });
    const cms = source.client.resource(ConfigMapKind);
    const owner = await cms.create({ metadata: { name: 'owner' } });
    await cms.create({ metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }] } });
    await source.settle();
    const copy = await fork(source);
    await copy.client.resource(ConfigMapKind).delete('owner', { namespace: 'default' });
    await copy.settle();
    expect((await statusOf(() => copy.client.resource(ConfigMapKind).get('dependent', { namespace: 'default' }))).code).toBe(404);
  });
});
