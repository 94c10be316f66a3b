/**
 * `@kubernetes/client-node` 2.x, unmodified, against a cluster in the same process with no
 * socket: API clients, errors, streaming watches (and their end on the cluster's side), informers.
 */
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCluster, createFetchHandler, portlessKubeConfig, type Cluster } from '../../src/index.js';

const cm = (name: string, data: Record<string, string> = {}): V1ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('portlessKubeConfig', () => {
  let cluster: Cluster;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeEach(async () => {
    cluster = await createCluster();
    kc = portlessKubeConfig(new KubeConfig(), cluster);
    core = kc.makeApiClient(CoreV1Api);
  });
  afterEach(() => cluster.close());

  it('serves CRUD, patches and lists through cluster.fetch, never the network', async () => {
    const fetchSpy = vi.spyOn(cluster, 'fetch');
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('a', { x: '1' }) });
    expect(created.metadata?.uid).toBeTruthy();
    const patched = await core.patchNamespacedConfigMap(
      { name: 'a', namespace: 'default', body: { data: { y: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.data).toEqual({ x: '1', y: '2' });
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const read = (await objects.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } })) as V1ConfigMap;
    expect(read.data).toEqual({ x: '1', y: '2' });
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((i) => i.metadata?.name)).toContain('a');
    expect(fetchSpy).toHaveBeenCalled();
    expect(String(fetchSpy.mock.calls[0]![0].url)).toBe('https://memkube.portless/api/v1/namespaces/default/configmaps');
    expect(kc.getCurrentCluster()?.server).toBe('https://memkube.portless');
  });

  it('answers through the Fetch handler it is given: the HTTP door options of createFetchHandler apply', async () => {
    const handler = createFetchHandler(cluster, { minRequestTimeoutSeconds: 1 });
    const seen: string[] = [];
    const own = portlessKubeConfig(new KubeConfig(), cluster, { fetch: (request) => (seen.push(new URL(request.url).pathname), handler(request)) });
    const fetchSpy = vi.spyOn(cluster, 'fetch');
    await own.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: 'default', body: cm('through-handler') });
    expect(seen).toEqual(['/api/v1/namespaces/default/configmaps']);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('errors carry the Status body, as over HTTP', async () => {
    const err = await core.readNamespacedConfigMap({ name: 'nope', namespace: 'default' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    const e = err as ApiException<string>;
    expect(e.code).toBe(404);
    expect(JSON.parse(e.body)).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'configmaps "nope" not found' });
  });

  it('authenticates the token it is given: an unknown token is 401, and the admin token is the default', async () => {
    const stranger = portlessKubeConfig(new KubeConfig(), cluster, { token: 'not-a-token' }).makeApiClient(CoreV1Api);
    const err = (await stranger.listNamespace().catch((e: unknown) => e)) as ApiException<string>;
    expect(err.code).toBe(401);
    expect((await core.listNamespace()).items.map((n) => n.metadata?.name)).toContain('default');
  });

  it('a watch streams events as they happen, and aborting it ends it on the cluster', async () => {
    const events: string[] = [];
    let ended: unknown = 'running';
    const controller = await new Watch(kc).watch(
      '/api/v1/namespaces/default/configmaps',
      {},
      (type, obj: V1ConfigMap) => events.push(`${type} ${obj.metadata?.name}`),
      (err) => (ended = err ?? null),
    );
    await vi.waitFor(() => expect(cluster.activeWatchers).toBe(1));
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('w1') });
    // The event arrives while the response is still open.
    await vi.waitFor(() => expect(events).toEqual(['ADDED w1']));
    expect(ended).toBe('running');
    await core.deleteNamespacedConfigMap({ name: 'w1', namespace: 'default' });
    await vi.waitFor(() => expect(events).toEqual(['ADDED w1', 'DELETED w1']));
    controller.abort();
    await vi.waitFor(() => expect(cluster.activeWatchers).toBe(0));
  });

  it('a watch the cluster ends (timeoutSeconds) calls done(null); a bad resourceVersion is a 400', async () => {
    let ended: unknown = 'running';
    await new Watch(kc).watch(
      '/api/v1/namespaces/default/configmaps',
      { timeoutSeconds: 1 },
      () => undefined,
      (err) => (ended = err ?? null),
    );
    await vi.waitFor(() => expect(cluster.activeWatchers).toBe(1));
    cluster.clock.advance(1_500);
    await vi.waitFor(() => expect(ended).toBe(null));
    let bad: unknown = 'running';
    await new Watch(kc).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: 'abc' },
      () => undefined,
      (err) => (bad = err),
    );
    expect((bad as { statusCode?: number }).statusCode).toBe(400);
  });

  it('an informer lists, then follows the watch', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('before') });
    const informer = makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
    await informer.start();
    try {
      await vi.waitFor(() => expect(cluster.activeWatchers).toBe(1));
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after') });
      await core.deleteNamespacedConfigMap({ name: 'before', namespace: 'default' });
      await vi.waitFor(() => expect(log).toEqual(['add before', 'add after', 'delete before']));
      expect(informer.list('default').map((o) => o.metadata?.name)).toEqual(['after']);
    } finally {
      await informer.stop();
    }
    await vi.waitFor(() => expect(cluster.activeWatchers).toBe(0));
  });

  it('leaves other KubeConfigs on the network', () => {
    const plain = new KubeConfig();
    portlessKubeConfig(kc, cluster);
    expect(Object.hasOwn(plain, 'applySecurityAuthentication')).toBe(false);
    expect(Object.hasOwn(kc, 'applySecurityAuthentication')).toBe(true);
  });
});
