/**
 * `@kubernetes/client-node` 2.x resuming from a stale resourceVersion against an in-process
 * cluster served by `listen()` on 127.0.0.1 (its clock frozen, moved by the test): a `Watch` from
 * more than 1,000 changes back gets every change; one from a compacted revision gets ERROR 410
 * and its end; an informer whose list answered an old revision, or whose watch resumes from a
 * compacted one, ends up with the right objects (ListWatch clears its resourceVersion on an ERROR
 * event with code 410 and lists again when the stream ends).
 */
import { CoreV1Api, KubeConfig, makeInformer, Watch, type V1ConfigMap, type V1ConfigMapList } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { listen, type Listening } from '../../src/http/listen.js';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { testCluster } from '../support/cluster.js';
import { patchMany } from '../support/patch-many.js';

const RETENTION_MS = 60_000;

/** Polls `check` until it passes; fails with its last error after `timeoutMs` (a bound on a hang, not a pause). */
async function eventually(check: () => void, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

let cluster: Cluster;
let server: Listening;
let kc: KubeConfig;
let core: CoreV1Api;
beforeEach(async () => {
  cluster = await testCluster({ historyRetentionMs: RETENTION_MS });
  // Watches without timeoutSeconds end after 1 to 2 s of the cluster clock (kube-apiserver's
  // --min-request-timeout), so the test can end one by moving the clock.
  server = await listen(createFetchHandler(cluster, { minRequestTimeoutSeconds: 1 }));
  kc = new KubeConfig();
  kc.loadFromString(server.kubeconfig());
  core = kc.makeApiClient(CoreV1Api);
});
afterEach(async () => {
  await server.close();
  await cluster.close();
});

/** A raw client-node `Watch` that records what it sees. */
async function record(path: string, resourceVersion: string) {
  const events: { type: string; rv?: string; code?: number; message?: string }[] = [];
  let ended: unknown = 'running';
  const controller = await new Watch(kc).watch(
    path,
    { resourceVersion },
    (type, obj: V1ConfigMap & { code?: number; message?: string }) =>
      events.push(type === 'ERROR' ? { type, code: obj.code, message: obj.message } : { type, rv: obj.metadata?.resourceVersion }),
    (err) => (ended = err ?? null),
  );
  return { events, ended: () => ended, stop: () => controller.abort() };
}

const names = (items: readonly V1ConfigMap[]) => items.map((o) => o.metadata?.name).sort();

describe('client-node from a stale resourceVersion', () => {
  it('Watch: from 1,100 changes back every change is replayed, in order; from a compacted one ERROR 410, then the end', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'stale' } });
    const created = await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'c', namespace: 'stale' } });
    const patched = await patchMany(cluster, 'stale', 'c', 1100);
    const w = await record('/api/v1/namespaces/stale/configmaps', created.metadata!.resourceVersion!);
    await eventually(() => expect(w.events.length).toBeGreaterThanOrEqual(1100));
    expect(w.events).toEqual(patched.map((rv) => ({ type: 'MODIFIED', rv })));
    expect(w.ended()).toBe('running');
    w.stop();

    // Past the retention window: the creation's revision left the history.
    cluster.clock.advance(RETENTION_MS);
    const last = await cluster.client.resource(ConfigMapKind).patch('c', { data: { n: 'after' } }, { namespace: 'stale', type: 'merge' });
    const expired = await record('/api/v1/namespaces/stale/configmaps', created.metadata!.resourceVersion!);
    await eventually(() => expect(expired.ended()).toBe(null));
    expect(expired.events).toEqual([
      { type: 'ERROR', code: 410, message: `too old resource version: ${created.metadata!.resourceVersion} (${Number(last.metadata!.resourceVersion) - 1})` },
    ]);
  }, 60_000);

  it('an informer whose list answered a revision 1,100 changes back catches up from the replay, without listing again', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'old-list' } });
    const configMaps = cluster.client.resource(ConfigMapKind);
    await configMaps.create({ metadata: { name: 'kept', namespace: 'old-list' } });
    await configMaps.create({ metadata: { name: 'gone', namespace: 'old-list' } });
    const stale = await core.listNamespacedConfigMap({ namespace: 'old-list' });
    await patchMany(cluster, 'old-list', 'kept', 1100);
    await configMaps.delete('gone', { namespace: 'old-list' });
    await configMaps.create({ metadata: { name: 'new', namespace: 'old-list' } });

    let lists = 0;
    const informer = makeInformer(kc, '/api/v1/namespaces/old-list/configmaps', async (): Promise<V1ConfigMapList> => {
      lists++;
      return lists === 1 ? stale : core.listNamespacedConfigMap({ namespace: 'old-list' });
    });
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually(() => expect(names(informer.list('old-list'))).toEqual(['kept', 'new']));
      const current = await configMaps.get('kept', { namespace: 'old-list' });
      await eventually(() => expect(informer.get('kept', 'old-list')?.metadata?.resourceVersion).toBe(current.metadata!.resourceVersion));
      expect(informer.get('kept', 'old-list')?.data).toEqual(current.data);
      expect(lists).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  }, 60_000);

  it('an informer whose list answered a compacted revision relists and ends up with the current objects', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'compacted-list' } });
    const configMaps = cluster.client.resource(ConfigMapKind);
    await configMaps.create({ metadata: { name: 'gone', namespace: 'compacted-list' } });
    const stale = await core.listNamespacedConfigMap({ namespace: 'compacted-list' });
    await configMaps.delete('gone', { namespace: 'compacted-list' });
    cluster.clock.advance(RETENTION_MS);
    await configMaps.create({ metadata: { name: 'now', namespace: 'compacted-list' } });

    let lists = 0;
    const informer = makeInformer(kc, '/api/v1/namespaces/compacted-list/configmaps', async (): Promise<V1ConfigMapList> => {
      lists++;
      return lists === 1 ? stale : core.listNamespacedConfigMap({ namespace: 'compacted-list' });
    });
    const deleted: string[] = [];
    informer.on('delete', (o) => deleted.push(o.metadata!.name!));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually(() => expect(names(informer.list('compacted-list'))).toEqual(['now']));
      expect(lists).toBe(2);
      expect(deleted).toEqual(['gone']);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  }, 60_000);

  it('an informer whose watch ends and resumes from a compacted revision relists and sees what changed meanwhile', async () => {
    for (const name of ['quiet', 'busy']) await cluster.client.resource(NamespaceKind).create({ metadata: { name } });
    const configMaps = cluster.client.resource(ConfigMapKind);
    await configMaps.create({ metadata: { name: 'q1', namespace: 'quiet' } });
    let lists = 0;
    const informer = makeInformer(kc, '/api/v1/namespaces/quiet/configmaps', () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: 'quiet' });
    });
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await eventually(() => expect(cluster.activeWatchers).toBe(1));
      expect(names(informer.list('quiet'))).toEqual(['q1']);
      // Changes elsewhere move the revision past the informer's (it asks for no bookmarks).
      for (let i = 0; i < 3; i++) await configMaps.create({ metadata: { name: `b${i}`, namespace: 'busy' } });
      // The server ends the watch (its 1 to 2 s are over) and everything so far leaves the
      // history; the quiet namespace changes before the informer is back.
      cluster.clock.advance(RETENTION_MS);
      expect(cluster.activeWatchers).toBe(0);
      await configMaps.delete('q1', { namespace: 'quiet' });
      await configMaps.create({ metadata: { name: 'q2', namespace: 'quiet' } });
      await eventually(() => expect(names(informer.list('quiet'))).toEqual(['q2']));
      expect(lists).toBe(2);
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  }, 60_000);
});
