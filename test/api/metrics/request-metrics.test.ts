/**
 * The API server's request metrics for requests through `cluster.request` (the in-process client,
 * the built-in controllers): counts, labels as kube-apiserver reports them, watches, in-flight
 * requests, stored objects, cache list counters and bounded cardinality.
 */
import { describe, expect, it } from 'vitest';
import { ConfigMapKind } from '../../../src/kinds/index.js';
import { useTestCluster, statusOf, testCluster } from '../../support/cluster.js';
import { createCluster } from '../../../src/cluster.js';

const cluster = useTestCluster();
const CM = { group: '', version: 'v1', resource: 'configmaps' };

function configMap(name: string, labels: Record<string, string> = {}) {
  return { metadata: { name, labels }, data: { k: 'v' } };
}

describe('apiserver_request_total through the in-process client', () => {
  it('counts 3 LISTs of configmaps as 3', async () => {
    const before = await cluster.metrics.value('apiserver_request_total', { verb: 'LIST', resource: 'configmaps' });
    for (let i = 0; i < 3; i++) await cluster.client.resource(ConfigMapKind).list({ namespace: 'default' });
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'LIST', resource: 'configmaps' })).toBe(before + 3);
    expect(
      await cluster.metrics.value('apiserver_request_total', {
        verb: 'LIST',
        dry_run: '',
        group: '',
        version: 'v1',
        resource: 'configmaps',
        subresource: '',
        scope: 'namespace',
        component: 'apiserver',
        code: '200',
      }),
    ).toBe(before + 3);
    expect(await cluster.metrics.value('apiserver_request_duration_seconds', { verb: 'LIST', resource: 'configmaps' })).toBe(before + 3);
  });

  it('counts them with audit on too, each request audited and counted once', async () => {
    const events: unknown[] = [];
    const audited = await createCluster({
      audit: {
        policy: { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] },
        backends: [{ name: 'test', processEvents: (e) => (events.push(...e), true), shutdown: async () => undefined }],
      },
    });
    try {
      for (let i = 0; i < 3; i++) await audited.client.resource(ConfigMapKind).list({ namespace: 'default' });
      expect(await audited.metrics.value('apiserver_request_total', { verb: 'LIST', resource: 'configmaps' })).toBe(3);
      expect(
        events.filter((e) => (e as { verb: string; stage: string }).verb === 'list' && (e as { stage: string }).stage === 'ResponseComplete'),
      ).toHaveLength(3);
    } finally {
      await audited.close();
    }
  });

  it('reports each verb as upstream does, with its scope and code', async () => {
    const cms = cluster.client.resource(ConfigMapKind);
    await cms.create(configMap('a'));
    await cms.get('a');
    const got = await cms.get('a');
    await cms.update({ ...got, data: { k: 'w' } });
    await cms.patch('a', { data: { k: 'x' } }, { type: 'merge' });
    await cms.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'y' } }, { fieldManager: 'test' });
    await cms.create(configMap('c'), { dryRun: 'All' });
    await cms.delete('a');
    await cms.deleteCollection({ namespace: 'default' });
    await cms.list({});
    const count = (labels: Record<string, string>) => cluster.metrics.value('apiserver_request_total', { resource: 'configmaps', ...labels });
    expect(await count({ verb: 'POST', scope: 'resource', dry_run: '', code: '201' })).toBe(1);
    expect(await count({ verb: 'POST', scope: 'resource', dry_run: 'All', code: '201' })).toBe(1);
    expect(await count({ verb: 'GET', scope: 'resource', code: '200' })).toBe(2);
    expect(await count({ verb: 'PUT', scope: 'resource' })).toBe(1);
    expect(await count({ verb: 'PATCH', scope: 'resource' })).toBe(1);
    expect(await count({ verb: 'APPLY', scope: 'resource' })).toBe(1);
    expect(await count({ verb: 'DELETE', scope: 'resource' })).toBe(1);
    expect(await count({ verb: 'DELETECOLLECTION', scope: 'namespace' })).toBe(1);
    // Every namespace's configmaps.
    expect(await count({ verb: 'LIST', scope: 'cluster' })).toBe(1);
  });

  it('counts failures by their code, and nothing for resources no route serves', async () => {
    await statusOf(() => cluster.client.resource(ConfigMapKind).get('missing'));
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'GET', resource: 'configmaps', code: '404' })).toBe(1);
    const samples = async () => (await cluster.metrics.samples()).filter((s) => s.name === 'apiserver_request_total').length;
    const series = await samples();
    for (let i = 0; i < 1000; i++) {
      await statusOf(() =>
        cluster.request({
          verb: 'list',
          resource: { group: `g${i}.example`, version: 'v1', resource: `r${i}` },
          user: { username: 'u', groups: ['system:masters'] },
        }),
      );
      await statusOf(() =>
        cluster.request({
          verb: 'get',
          resource: CM,
          namespace: 'default',
          name: 'x',
          subresource: `sub${i}`,
          user: { username: 'u', groups: ['system:masters'] },
        }),
      );
    }
    expect(await samples()).toBe(series);
    const text = await cluster.metrics.text();
    expect(text).not.toMatch(/g17\.example|r17|sub17/);
  });

  it('collapses a verb it does not know into "other"', async () => {
    await statusOf(() =>
      cluster.request({ verb: 'frobnicate' as 'get', resource: CM, namespace: 'default', user: { username: 'u', groups: ['system:masters'] } }),
    );
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'other', resource: 'configmaps' })).toBe(1);
    expect(await cluster.metrics.text()).not.toContain('frobnicate');
  });

  it('counts the built-in controllers as self-requests', async () => {
    await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'x', namespace: 'default' } });
    // The namespace controller's work on a new namespace runs as system:apiserver.
    expect(await cluster.metrics.value('apiserver_selfrequest_total')).toBeGreaterThan(0);
    expect(await cluster.metrics.value('apiserver_selfrequest_total', { resource: 'namespaces', verb: 'POST' })).toBeGreaterThanOrEqual(4);
  });

  it('marks a deprecated API as requested', async () => {
    expect(await cluster.metrics.value('apiserver_requested_deprecated_apis', { resource: 'componentstatuses' })).toBe(0);
    await cluster.request({
      verb: 'list',
      resource: { group: '', version: 'v1', resource: 'componentstatuses' },
      user: { username: 'u', groups: ['system:masters'] },
    });
    expect(
      await cluster.metrics.value('apiserver_requested_deprecated_apis', { group: '', version: 'v1', resource: 'componentstatuses', removed_release: '' }),
    ).toBe(1);
  });

  it('reports the most requests in flight since the last read, by request kind', async () => {
    await cluster.metrics.text();
    const cms = cluster.client.resource(ConfigMapKind);
    await Promise.all([cms.get('none').catch(() => undefined), cms.list({}), cms.list({})]);
    expect(await cluster.metrics.value('apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBeGreaterThanOrEqual(1);
    expect(await cluster.metrics.value('apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(0);
    // Nothing in flight since.
    expect(await cluster.metrics.value('apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBe(0);
    await cms.create(configMap('m'));
    expect(await cluster.metrics.value('apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(1);
  });
});

describe('watches through the in-process client', () => {
  it('counts a watch while it runs, records it with its lifetime when it ends, and counts its events', async () => {
    const cms = cluster.client.resource(ConfigMapKind);
    const watch = await cms.watch({ namespace: 'default' });
    const labels = { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' };
    expect(await cluster.metrics.value('apiserver_longrunning_requests', labels)).toBe(1);
    expect(await cluster.metrics.value('apiserver_request_total', labels)).toBe(0);
    await cms.create(configMap('w1'));
    await cms.create(configMap('w2'));
    const it = watch[Symbol.asyncIterator]();
    expect((await it.next()).value?.type).toBe('ADDED');
    expect((await it.next()).value?.type).toBe('ADDED');
    expect(await cluster.metrics.value('apiserver_watch_events_total', { group: '', version: 'v1', resource: 'configmaps' })).toBe(2);
    watch.close();
    await watch.done;
    await Promise.resolve();
    expect(await cluster.metrics.value('apiserver_longrunning_requests', labels)).toBe(0);
    expect(await cluster.metrics.value('apiserver_request_total', { ...labels, code: '200' })).toBe(1);
    expect(await cluster.metrics.value('apiserver_request_duration_seconds', labels)).toBe(1);
    // A watch is long-running: never in flight.
    expect(await cluster.metrics.value('apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBe(0);
  });
});

describe('apiserver_terminated_watchers_total', () => {
  it('counts a watcher closed because its client fell behind, not one its client closed', async () => {
    const small = await testCluster({ watchBufferSize: 5 });
    try {
      const cms = small.client.resource(ConfigMapKind);
      const slow = await cms.watch({ namespace: 'default' });
      const closed = await cms.watch({ namespace: 'default' });
      closed.close();
      for (let i = 0; i < 6; i++) await cms.create(configMap(`t${i}`));
      await slow.done;
      await Promise.resolve();
      expect(await small.metrics.value('apiserver_terminated_watchers_total', { group: '', resource: 'configmaps' })).toBe(1);
      expect(await small.metrics.value('apiserver_request_total', { verb: 'WATCH', resource: 'configmaps' })).toBe(2);
    } finally {
      await small.close();
    }
  });
});

describe('apiserver_storage_objects', () => {
  it('follows creates and deletes, by resource', async () => {
    const cms = cluster.client.resource(ConfigMapKind);
    const base = await cluster.metrics.value('apiserver_storage_objects', { resource: 'configmaps' });
    await cms.create(configMap('s1'));
    await cms.create(configMap('s2'));
    expect(await cluster.metrics.value('apiserver_storage_objects', { resource: 'configmaps' })).toBe(base + 2);
    expect(await cluster.metrics.value('apiserver_resource_objects', { group: '', resource: 'configmaps' })).toBe(base + 2);
    await cms.delete('s1');
    expect(await cluster.metrics.value('apiserver_storage_objects', { resource: 'configmaps' })).toBe(base + 1);
    // Four initial namespaces; groups join the resource as GroupResource.String() does.
    expect(await cluster.metrics.value('apiserver_storage_objects', { resource: 'namespaces' })).toBe(4);
    expect(
      (await cluster.metrics.samples()).some((s) => s.name === 'apiserver_storage_objects' && s.labels.resource === 'clusterroles.rbac.authorization.k8s.io'),
    ).toBe(true);
    // Virtual resources store nothing and have no series.
    expect((await cluster.metrics.samples()).some((s) => s.name === 'apiserver_storage_objects' && s.labels.resource?.startsWith('subjectaccessreviews'))).toBe(
      false,
    );
  });
});

describe('the cache list counters', () => {
  it('count lists, the objects read and the objects returned, with and without selectors', async () => {
    const cms = cluster.client.resource(ConfigMapKind);
    for (let i = 0; i < 5; i++) await cms.create(configMap(`l${i}`, { tier: i < 2 ? 'web' : 'db' }));
    const read = async () => ({
      lists: await cluster.metrics.value('apiserver_cache_list_total', { resource: 'configmaps', group: '' }),
      fetched: await cluster.metrics.value('apiserver_cache_list_fetched_objects_total', { resource: 'configmaps' }),
      returned: await cluster.metrics.value('apiserver_cache_list_returned_objects_total', { resource: 'configmaps' }),
    });
    const base = await read();
    await cms.list({ namespace: 'default' });
    let now = await read();
    expect(now.lists - base.lists).toBe(1);
    expect(now.fetched - base.fetched).toBe(5);
    expect(now.returned - base.returned).toBe(5);
    // An equality label selector reads through the label index, only the objects carrying the label.
    await cms.list({ namespace: 'default', labelSelector: 'tier=web' });
    const afterIndexed = await read();
    expect(afterIndexed.fetched - now.fetched).toBe(2);
    expect(afterIndexed.returned - now.returned).toBe(2);
    expect(await cluster.metrics.value('apiserver_cache_list_total', { resource: 'configmaps', index: 'l:tier' })).toBe(1);
    now = afterIndexed;
    // A selector no index serves reads every object, returns the matching ones.
    await cms.list({ namespace: 'default', labelSelector: 'tier notin (web)' });
    const after = await read();
    expect(after.fetched - now.fetched).toBe(5);
    expect(after.returned - now.returned).toBe(3);
    expect(await cluster.metrics.value('apiserver_cache_list_total', { resource: 'configmaps', index: '' })).toBe(after.lists - 1);
  });
});

describe('a cluster with metrics off', () => {
  it('counts nothing', async () => {
    const off = await testCluster({ metrics: false });
    try {
      await off.client.resource(ConfigMapKind).list({ namespace: 'default' });
      expect(await off.metrics.value('apiserver_request_total')).toBe(0);
      expect(await off.metrics.samples()).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
