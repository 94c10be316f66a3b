/**
 * `@kubernetes/client-node` 2.x against `memkube serve`: the real server as a child process on a
 * free port, the real client over undici. CRUD, every patch type, Status errors, raw watches,
 * informers (including a relist after 410 Gone) and pagination; the same scenarios portless, against
 * an in-process cluster through `portlessKubeConfig`.
 */
import {
  ApiException,
  CoreV1Api,
  EventsV1Api,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, createFetchHandler, portlessKubeConfig, type Cluster } from '../../src/index.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns without throwing. */
async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await sleep(50);
    }
  }
}

/** The Status an ApiException carries (client-node hands the body over as text). */
async function statusOf(p: Promise<unknown>): Promise<{ code: number; status: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body = (e as ApiException<unknown>).body;
    return { code: e.code, status: (typeof body === 'string' ? JSON.parse(body) : body) as Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}

function cm(name: string, data: Record<string, string>, labels?: Record<string, string>): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data };
}

interface Seen {
  type: string;
  name?: string;
  rv?: string;
  data?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A raw `Watch` that records what it sees; `stop()` aborts it. */
async function record(kc: KubeConfig, path: string, params: Record<string, string | number | boolean | undefined>) {
  const events: Seen[] = [];
  let ended: unknown = 'running';
  const controller = await new Watch(kc).watch(
    path,
    params,
    (type, obj: V1ConfigMap) =>
      events.push({ type, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion, data: obj.data, annotations: obj.metadata?.annotations }),
    (err) => (ended = err ?? null),
  );
  return { events, ended: () => ended, stop: () => controller.abort() };
}

// The same scenarios over HTTP to `memkube serve`, and portless: an in-process cluster answering
// the unmodified client through `cluster.fetch`, with no socket.
describe.each(['memkube serve over HTTP', 'an in-process cluster, portless'] as const)('@kubernetes/client-node against %s', (mode) => {
  let dir: string;
  let server: ServeProcess | undefined;
  let cluster: Cluster | undefined;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-client-node-'));
    kc = new KubeConfig();
    if (mode === 'memkube serve over HTTP') {
      server = await startServe(join(dir, 'kubeconfig'), ['--bookmark-interval', '300ms']);
      kc.loadFromFile(join(dir, 'kubeconfig'));
    } else {
      cluster = await createCluster({ bookmarkIntervalMs: 300 });
      portlessKubeConfig(kc, cluster);
    }
    core = kc.makeApiClient(CoreV1Api);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await cluster?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('CRUD of ConfigMaps: create, read, replace, list with a label selector, delete', async () => {
    const namespace = 'default';
    const created = await core.createNamespacedConfigMap({ namespace, body: cm('crud', { a: '1' }, { app: 'crud' }) });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    await core.createNamespacedConfigMap({ namespace, body: cm('crud-other', { b: '1' }, { app: 'other' }) });

    const read = await core.readNamespacedConfigMap({ name: 'crud', namespace });
    expect(read.data).toEqual({ a: '1' });

    read.data = { a: '2' };
    const replaced = await core.replaceNamespacedConfigMap({ name: 'crud', namespace, body: read });
    expect(replaced.data).toEqual({ a: '2' });
    expect(Number(replaced.metadata!.resourceVersion)).toBeGreaterThan(Number(created.metadata!.resourceVersion));

    const listed = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=crud' });
    expect(listed.items.map((i) => i.metadata?.name)).toEqual(['crud']);
    expect(listed.metadata?.resourceVersion).toMatch(/^\d+$/);
    const all = await core.listConfigMapForAllNamespaces({ labelSelector: 'app in (crud,other)' });
    expect(all.items.map((i) => i.metadata?.name).sort()).toEqual(['crud', 'crud-other']);

    const deleted = await core.deleteNamespacedConfigMap({ name: 'crud', namespace });
    expect(deleted).toMatchObject({ kind: 'Status', status: 'Success' });
    await core.deleteNamespacedConfigMap({ name: 'crud-other', namespace });
    expect((await statusOf(core.readNamespacedConfigMap({ name: 'crud', namespace }))).code).toBe(404);
  });

  it('events.k8s.io/v1 and core/v1 Events are one object, converted by either API', async () => {
    const namespace = 'default';
    const events = kc.makeApiClient(EventsV1Api);
    const created = await events.createNamespacedEvent({
      namespace,
      body: {
        metadata: { name: 'scaled.1' },
        eventTime: new Date('2026-01-01T00:00:00.123Z'),
        reportingController: 'example.com/controller',
        reportingInstance: 'controller-0',
        action: 'Scale',
        reason: 'Scaled',
        type: 'Normal',
        note: 'scaled to 3',
        regarding: { kind: 'StatefulSet', namespace, name: 'web' },
      },
    });
    expect(created.note).toBe('scaled to 3');
    const asCore = await core.readNamespacedEvent({ name: 'scaled.1', namespace });
    expect(asCore).toMatchObject({
      message: 'scaled to 3',
      reportingComponent: 'example.com/controller',
      involvedObject: { kind: 'StatefulSet', name: 'web' },
    });
    expect(asCore.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const bad = await statusOf(events.createNamespacedEvent({ namespace, body: { metadata: { name: 'bad' }, eventTime: new Date('2026-01-01T00:00:00Z') } }));
    expect(bad.code).toBe(422);
    expect(String(bad.status.message)).toContain('reportingController: Required value');
    await events.deleteNamespacedEvent({ name: 'scaled.1', namespace });
    expect((await statusOf(core.readNamespacedEvent({ name: 'scaled.1', namespace }))).code).toBe(404);
  });

  it('every patch type: merge, json, strategic and server-side apply', async () => {
    const namespace = 'default';
    await core.createNamespacedConfigMap({ namespace, body: cm('patched', { a: '1' }) });
    const patch = (body: unknown, type: PatchStrategy, extra: { fieldManager?: string; force?: boolean } = {}) =>
      core.patchNamespacedConfigMap({ name: 'patched', namespace, body, ...extra }, setHeaderOptions('Content-Type', type));

    expect((await patch({ data: { m: '1' } }, PatchStrategy.MergePatch)).data).toEqual({ a: '1', m: '1' });
    expect((await patch([{ op: 'add', path: '/data/j', value: '2' }], PatchStrategy.JsonPatch)).data).toEqual({ a: '1', m: '1', j: '2' });
    expect((await patch({ data: { s: '3', a: null } }, PatchStrategy.StrategicMergePatch)).data).toEqual({ m: '1', j: '2', s: '3' });
    // No Content-Type override: client-node 2.x sends application/json-patch+json by default.
    expect((await core.patchNamespacedConfigMap({ name: 'patched', namespace, body: [{ op: 'remove', path: '/data/j' }] })).data).toEqual({ m: '1', s: '3' });

    const applied = await patch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, data: { m: 'applied' } }, PatchStrategy.ServerSideApply, {
      fieldManager: 'e2e',
      force: true,
    });
    expect(applied.data).toEqual({ m: 'applied', s: '3' });
    expect(applied.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toContainEqual(['e2e', 'Apply']);

    // Apply creates, and KubernetesObjectApi.patch takes the strategy as an argument.
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const made = await objects.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied-new', namespace }, data: { x: '1' } },
      undefined,
      undefined,
      'e2e',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect((made as V1ConfigMap).metadata?.uid).toBeTruthy();
    const merged = await objects.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied-new', namespace }, data: { y: '2' } },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    expect((merged as V1ConfigMap).data).toEqual({ x: '1', y: '2' });
    await objects.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied-new', namespace } });
    await core.deleteNamespacedConfigMap({ name: 'patched', namespace });
  });

  it('errors come back with the Status body (404, 409, 422)', async () => {
    const namespace = 'default';
    const missing = await statusOf(core.readNamespacedConfigMap({ name: 'nope', namespace }));
    expect(missing.code).toBe(404);
    expect(missing.status).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'configmaps "nope" not found',
      details: { name: 'nope', kind: 'configmaps' },
    });

    const first = await core.createNamespacedConfigMap({ namespace, body: cm('errs', { a: '1' }) });
    const exists = await statusOf(core.createNamespacedConfigMap({ namespace, body: cm('errs', { a: '1' }) }));
    expect(exists.code).toBe(409);
    expect(exists.status).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "errs" already exists' });

    await core.replaceNamespacedConfigMap({ name: 'errs', namespace, body: { ...first, data: { a: '2' } } });
    const stale = await statusOf(core.replaceNamespacedConfigMap({ name: 'errs', namespace, body: { ...first, data: { a: '3' } } }));
    expect(stale.code).toBe(409);
    expect(stale.status).toMatchObject({ reason: 'Conflict' });
    expect(String(stale.status.message)).toContain('the object has been modified');

    const invalid = await statusOf(core.createNamespacedConfigMap({ namespace, body: cm('Bad_Name', {}) }));
    expect(invalid.code).toBe(422);
    expect(invalid.status).toMatchObject({ reason: 'Invalid', details: { name: 'Bad_Name', kind: 'ConfigMap' } });
    expect((invalid.status.details as { causes: { field: string }[] }).causes[0]!.field).toBe('metadata.name');

    const missingNs = await statusOf(core.createNamespacedConfigMap({ namespace: 'no-such-ns', body: cm('x', {}) }));
    expect(missingNs.code).toBe(404);
    expect(missingNs.status).toMatchObject({ reason: 'NotFound', message: 'namespaces "no-such-ns" not found' });
    await core.deleteNamespacedConfigMap({ name: 'errs', namespace });
  });

  it('Watch: ADDED, MODIFIED, DELETED in order with resourceVersions; from a resourceVersion; bookmarks; timeoutSeconds', async () => {
    await core.createNamespace({ body: { metadata: { name: 'watched' } } });
    const namespace = 'watched';
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    const w = await record(kc, path, { allowWatchBookmarks: true });
    // The watch is registered once the headers arrived; give the stream a moment to be set up.
    await sleep(100);
    const c = await core.createNamespacedConfigMap({ namespace, body: cm('w', { a: '1' }) });
    const u = await core.replaceNamespacedConfigMap({ name: 'w', namespace, body: { ...c, data: { a: '2' } } });
    const d = await core.deleteNamespacedConfigMap({ name: 'w', namespace });
    expect(d).toMatchObject({ status: 'Success' });
    await eventually(() => expect(w.events.filter((e) => e.type !== 'BOOKMARK').length).toBe(3));
    expect(w.events.filter((e) => e.type !== 'BOOKMARK')).toEqual([
      { type: 'ADDED', name: 'w', rv: c.metadata!.resourceVersion, data: { a: '1' }, annotations: undefined },
      { type: 'MODIFIED', name: 'w', rv: u.metadata!.resourceVersion, data: { a: '2' }, annotations: undefined },
      { type: 'DELETED', name: 'w', rv: expect.stringMatching(/^\d+$/), data: { a: '2' }, annotations: undefined },
    ]);
    const deletedRv = Number(w.events.find((e) => e.type === 'DELETED')!.rv);
    expect(deletedRv).toBeGreaterThan(Number(u.metadata!.resourceVersion));
    // Bookmarks come every --bookmark-interval (300ms) and carry the newest resourceVersion: one
    // sent after the DELETED event (one may have come before the create, on a slow machine).
    const bookmarksAfterDelete = () => w.events.slice(w.events.findIndex((e) => e.type === 'DELETED') + 1).filter((e) => e.type === 'BOOKMARK');
    await eventually(() => expect(bookmarksAfterDelete().length).toBeGreaterThan(0));
    const bookmark = bookmarksAfterDelete().at(-1)!;
    expect(Number(bookmark.rv)).toBeGreaterThanOrEqual(deletedRv);
    expect(w.ended()).toBe('running');
    w.stop();

    // A watch from the create's resourceVersion replays what followed it.
    const replay = await record(kc, path, { resourceVersion: c.metadata!.resourceVersion });
    await eventually(() => expect(replay.events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']));
    replay.stop();

    // timeoutSeconds ends the watch: done(null) after about a second.
    const timed = await record(kc, path, { timeoutSeconds: 1 });
    await eventually(() => expect(timed.ended()).toBe(null), 5_000);

    // sendInitialEvents as the streaming-list informers use it.
    await core.createNamespacedConfigMap({ namespace, body: cm('initial', { a: '1' }) });
    const streaming = await record(kc, path, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    await eventually(() => expect(streaming.events.some((e) => e.annotations?.['k8s.io/initial-events-end'] === 'true')).toBe(true));
    expect(streaming.events[0]).toMatchObject({ type: 'ADDED', name: 'initial' });
    expect(streaming.events[1]).toMatchObject({ type: 'BOOKMARK', annotations: { 'k8s.io/initial-events-end': 'true' } });
    streaming.stop();
  });

  it('a watch with a malformed resourceVersion is a 400; a too new one ends with an ERROR event', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const bad = await record(kc, path, { resourceVersion: 'abc' });
    await eventually(() => expect(bad.ended()).not.toBe('running'));
    expect((bad.ended() as { statusCode?: number }).statusCode).toBe(400);

    // Too new: the watch starts (200), then one ERROR event with the 504 Timeout Status, then the end.
    const future = await record(kc, path, { resourceVersion: '99999999' });
    await eventually(() => expect(future.ended()).toBe(null));
    expect(future.events).toEqual([{ type: 'ERROR', name: undefined, rv: undefined, data: undefined, annotations: undefined }]);
  });

  it('closing a watch releases it on the server (the connection closes and nothing piles up)', async () => {
    // Many watches opened and aborted: the server keeps serving and the next watch still works.
    for (let i = 0; i < 20; i++) {
      const w = await record(kc, '/api/v1/namespaces/default/configmaps', {});
      w.stop();
    }
    const w = await record(kc, '/api/v1/namespaces/default/configmaps', {});
    await sleep(100);
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after-aborts', {}) });
    await eventually(() => expect(w.events.map((e) => e.name)).toContain('after-aborts'));
    w.stop();
    await core.deleteNamespacedConfigMap({ name: 'after-aborts', namespace: 'default' });
  });

  it('an informer sees adds, updates and deletes', async () => {
    await core.createNamespace({ body: { metadata: { name: 'informed' } } });
    const namespace = 'informed';
    await core.createNamespacedConfigMap({ namespace, body: cm('before', { a: '1' }) });
    const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => core.listNamespacedConfigMap({ namespace }));
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.name} ${JSON.stringify(o.data)}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      expect(log).toEqual(['add before']);
      const c = await core.createNamespacedConfigMap({ namespace, body: cm('after', { a: '1' }) });
      await core.replaceNamespacedConfigMap({ name: 'after', namespace, body: { ...c, data: { a: '2' } } });
      await core.deleteNamespacedConfigMap({ name: 'before', namespace });
      await eventually(() => expect(log).toEqual(['add before', 'add after', 'update after {"a":"2"}', 'delete before']));
      expect(informer.list(namespace).map((o) => o.metadata?.name)).toEqual(['after']);
      expect(informer.get('after', namespace)?.data).toEqual({ a: '2' });
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('an informer with a label selector sees objects enter and leave the selection', async () => {
    const namespace = 'informed';
    const informer = makeInformer(
      kc,
      `/api/v1/namespaces/${namespace}/configmaps`,
      () => core.listNamespacedConfigMap({ namespace, labelSelector: 'app=in' }),
      'app=in',
    );
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name} ${o.metadata?.labels?.app}`));
    await informer.start();
    try {
      const label = (app: string) =>
        core.patchNamespacedConfigMap(
          { name: 'sel', namespace, body: { metadata: { labels: { app } } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
      await core.createNamespacedConfigMap({ namespace, body: cm('sel', {}, { app: 'in' }) });
      await label('out');
      await label('in');
      await core.createNamespacedConfigMap({ namespace, body: cm('never', {}, { app: 'out' }) });
      await core.deleteNamespacedConfigMap({ name: 'sel', namespace });
      // A watch sends an object that stops matching as DELETED in its new state, as Kubernetes does.
      await eventually(() => expect(log).toEqual(['add sel', 'delete sel out', 'add sel', 'delete sel in']));
      expect(informer.list(namespace)).toEqual([]);
    } finally {
      await informer.stop();
    }
  });

  it('pagination: limit and _continue give one consistent list; remainingItemCount', async () => {
    await core.createNamespace({ body: { metadata: { name: 'paged' } } });
    const namespace = 'paged';
    for (let i = 0; i < 5; i++) await core.createNamespacedConfigMap({ namespace, body: cm(`p${i}`, { i: String(i) }) });
    const first = await core.listNamespacedConfigMap({ namespace, limit: 2 });
    expect(first.items.map((i) => i.metadata?.name)).toEqual(['p0', 'p1']);
    expect(first.metadata?.remainingItemCount).toBe(3);
    expect(first.metadata?._continue).toBeTruthy();
    // A change between pages does not show up: every page is the first page's snapshot.
    await core.deleteNamespacedConfigMap({ name: 'p3', namespace });
    const names = first.items.map((i) => i.metadata?.name);
    let token = first.metadata?._continue;
    while (token) {
      const page = await core.listNamespacedConfigMap({ namespace, limit: 2, _continue: token });
      expect(page.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      names.push(...page.items.map((i) => i.metadata?.name));
      token = page.metadata?._continue;
    }
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    const bad = await statusOf(core.listNamespacedConfigMap({ namespace, limit: 2, _continue: 'not-a-token' }));
    expect(bad.code).toBe(400);
    expect(bad.status).toMatchObject({ reason: 'BadRequest' });
  });
});

describe.each(['memkube serve over HTTP', 'an in-process cluster, portless'] as const)(
  '@kubernetes/client-node informer relists after 410 Gone, against %s',
  (mode) => {
    let dir: string;
    let server: ServeProcess | undefined;
    let cluster: Cluster | undefined;
    /** A new client configuration for the cluster under test. */
    let config: () => KubeConfig;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'memkube-client-node-410-'));
      // A short history, and watches that the server ends after 1 to 2 s (kube-apiserver's
      // --min-request-timeout), so the informer's resumed watch starts from a compacted revision.
      if (mode === 'memkube serve over HTTP') {
        server = await startServe(join(dir, 'kubeconfig'), ['--history-retention', '500ms', '--min-request-timeout', '1s', '--continue-ttl', '500ms']);
        config = () => {
          const kc = new KubeConfig();
          kc.loadFromFile(join(dir, 'kubeconfig'));
          return kc;
        };
      } else {
        const inProcess = await createCluster({ historyRetentionMs: 500, continueTokenTtlMs: 500 });
        cluster = inProcess;
        const fetch = createFetchHandler(inProcess, { minRequestTimeoutSeconds: 1 });
        config = () => portlessKubeConfig(new KubeConfig(), inProcess, { fetch });
      }
    }, 30_000);

    afterAll(async () => {
      await server?.stop();
      await cluster?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('a watch from a compacted resourceVersion gets an ERROR event with 410 Expired', async () => {
      const kc = config();
      const core = kc.makeApiClient(CoreV1Api);
      const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('old', {}) });
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('newer', {}) });
      await sleep(700);
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('newest', {}) });
      const events: { type: string; object: Record<string, unknown> }[] = [];
      let ended: unknown = 'running';
      await new Watch(kc).watch(
        '/api/v1/namespaces/default/configmaps',
        { resourceVersion: c.metadata!.resourceVersion },
        (type, object) => events.push({ type, object }),
        (err) => (ended = err ?? null),
      );
      await eventually(() => expect(ended).toBe(null));
      expect(events).toEqual([
        {
          type: 'ERROR',
          object: expect.objectContaining({
            kind: 'Status',
            status: 'Failure',
            reason: 'Expired',
            code: 410,
            message: expect.stringMatching(/^too old resource version: \d+ \(\d+\)$/),
          }),
        },
      ]);

      // An expired continue token: 410 with a fresh token in the Status.
      const page = await core.listNamespacedConfigMap({ namespace: 'default', limit: 1 });
      await sleep(700);
      const expired = await statusOf(core.listNamespacedConfigMap({ namespace: 'default', limit: 1, _continue: page.metadata!._continue }));
      expect(expired.code).toBe(410);
      expect(expired.status).toMatchObject({ reason: 'Expired', metadata: { continue: expect.any(String) } });
    });

    it('the informer relists and stays correct', async () => {
      const kc = config();
      const core = kc.makeApiClient(CoreV1Api);
      await core.createNamespace({ body: { metadata: { name: 'quiet' } } });
      await core.createNamespace({ body: { metadata: { name: 'busy' } } });
      await core.createNamespacedConfigMap({ namespace: 'quiet', body: cm('q1', {}) });
      let lists = 0;
      const informer = makeInformer(kc, '/api/v1/namespaces/quiet/configmaps', () => {
        lists++;
        return core.listNamespacedConfigMap({ namespace: 'quiet' });
      });
      const log: string[] = [];
      informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
      informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
      const errors: unknown[] = [];
      informer.on('error', (e) => errors.push(e));
      await informer.start();
      try {
        expect(lists).toBe(1);
        // Writes elsewhere move the revision on while the quiet informer's stays old (it asks for no
        // bookmarks); once they leave the history, its next watch from that revision is 410 Gone.
        for (let i = 0; i < 3; i++) await core.createNamespacedConfigMap({ namespace: 'busy', body: cm(`b${i}`, {}) });
        await eventually(() => expect(lists).toBeGreaterThanOrEqual(2), 15_000);
        await core.createNamespacedConfigMap({ namespace: 'quiet', body: cm('q2', {}) });
        await core.deleteNamespacedConfigMap({ name: 'q1', namespace: 'quiet' });
        await eventually(() => expect(informer.list('quiet').map((o) => o.metadata?.name)).toEqual(['q2']));
        // The relist may see q2 and q1's deletion together; client-node then reports deletions first.
        expect([...log].sort()).toEqual(['add q1', 'add q2', 'delete q1']);
        expect(errors).toEqual([]);
      } finally {
        await informer.stop();
      }
    }, 30_000);
  },
);

// The cluster's faults reach the unmodified client by either way in: a watch the cluster drops or
// expires is what the informer's reconnect and relist code exists for.
describe.each(['HTTPS through cluster.listen()', 'portless'] as const)('@kubernetes/client-node informers under injected watch faults, %s', (mode) => {
  let cluster: Cluster;
  let stopServer: (() => Promise<void>) | undefined;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeAll(async () => {
    cluster = await createCluster();
    kc = new KubeConfig();
    if (mode === 'portless') {
      portlessKubeConfig(kc, cluster);
    } else {
      const server = await cluster.listen({ port: 0, host: '127.0.0.1', tls: true });
      stopServer = () => server.close();
      kc.loadFromOptions({
        clusters: [{ name: 'memkube', server: server.url, caData: Buffer.from(server.certificateAuthority!).toString('base64'), skipTLSVerify: false }],
        users: [{ name: 'admin', token: cluster.adminToken }],
        contexts: [{ name: 'memkube', cluster: 'memkube', user: 'admin' }],
        currentContext: 'memkube',
      });
    }
    core = kc.makeApiClient(CoreV1Api);
  });

  afterAll(async () => {
    await stopServer?.();
    await cluster.close();
  });

  /** An informer on the ConfigMaps of `namespace` that counts its lists and records what it sees. */
  function informerOn(namespace: string) {
    const seen = { lists: 0, log: [] as string[], errors: [] as unknown[] };
    const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => {
      seen.lists++;
      return core.listNamespacedConfigMap({ namespace });
    });
    informer.on('add', (o) => seen.log.push(`add ${o.metadata?.name}`));
    informer.on('delete', (o) => seen.log.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => seen.errors.push(e));
    return { informer, seen };
  }

  it('relists after the cluster expires its watch with 410, and stays correct', async () => {
    const namespace = mode === 'portless' ? 'expired-portless' : 'expired-http';
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({ namespace, body: cm('first', {}) });
    cluster.requests.start();
    const fault = cluster.faults.add({ match: { verb: 'watch', namespace }, times: 1, answer: { watch: 'expire', afterEvents: 1 } });
    const { informer, seen } = informerOn(namespace);
    await informer.start();
    try {
      expect(seen.lists).toBe(1);
      await core.createNamespacedConfigMap({ namespace, body: cm('second', {}) });
      // The first watch hands out one event, then the 410 ERROR event ends it: the informer lists anew.
      await eventually(() => expect(seen.lists).toBe(2));
      expect(fault.hits).toBe(1);
      await core.createNamespacedConfigMap({ namespace, body: cm('third', {}) });
      await core.deleteNamespacedConfigMap({ name: 'first', namespace });
      await eventually(() => expect(informer.list(namespace).map((o) => o.metadata?.name)).toEqual(['second', 'third']));
      expect([...seen.log].sort()).toEqual(['add first', 'add second', 'add third', 'delete first']);
      expect(seen.errors).toEqual([]);
      const watches = cluster.requests.entries.filter((e) => e.verb === 'watch' && e.namespace === namespace);
      expect(watches.map((e) => e.faulted)).toEqual([true, false]);
    } finally {
      await informer.stop();
      cluster.requests.stop();
      cluster.requests.clear();
    }
  });

  it('watches again after the cluster drops its watch, without losing an event', async () => {
    const namespace = mode === 'portless' ? 'dropped-portless' : 'dropped-http';
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    cluster.requests.start();
    const fault = cluster.faults.add({ match: { verb: 'watch', namespace }, times: 1, answer: { watch: 'drop', afterEvents: 1 } });
    const { informer, seen } = informerOn(namespace);
    await informer.start();
    try {
      await core.createNamespacedConfigMap({ namespace, body: cm('a', {}) });
      await eventually(() => expect(cluster.requests.entries.filter((e) => e.verb === 'watch' && e.namespace === namespace)).toHaveLength(2));
      expect(fault.hits).toBe(1);
      await core.createNamespacedConfigMap({ namespace, body: cm('b', {}) });
      await eventually(() => expect(informer.list(namespace).map((o) => o.metadata?.name)).toEqual(['a', 'b']));
      expect(seen.log).toEqual(['add a', 'add b']);
      expect(seen.errors).toEqual([]);
    } finally {
      await informer.stop();
      cluster.requests.stop();
      cluster.requests.clear();
    }
  });
});
