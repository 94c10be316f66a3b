/**
 * The API server's health checks: kube-apiserver's default names per endpoint, the storage probe,
 * readyz failing once the cluster shuts down, and the SLIs every run feeds.
 */
import { describe, expect, it } from 'vitest';
import { apiServerHealthChecks, POST_START_HOOKS } from '../../../src/api/metrics/health-checks.js';
import { MemoryStorage } from '../../../src/storage/memory.js';
import { testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const hooks = POST_START_HOOKS.map((h) => `poststarthook/${h}`);

describe('the API server health checks', () => {
  it('are named per endpoint as kube-apiserver names its defaults', () => {
    expect(cluster.health.names('healthz')).toEqual(['ping', 'log', 'etcd', ...hooks]);
    expect(cluster.health.names('livez')).toEqual(['ping', 'log', 'etcd', ...hooks]);
    expect(cluster.health.names('readyz')).toEqual(['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', ...hooks, 'shutdown']);
    expect(hooks).toContain('poststarthook/start-apiserver-admission-initializer');
    expect(hooks).toContain('poststarthook/rbac/bootstrap-roles');
  });

  it('list every check with ?verbose, over HTTP, and run one alone at its own path', async () => {
    const verbose = await (await cluster.fetch(new Request('http://memkube/readyz?verbose&exclude=log'))).text();
    expect(verbose.split('\n')).toEqual([
      '[+]ping ok',
      '[+]log excluded: ok',
      '[+]etcd ok',
      '[+]etcd-readiness ok',
      '[+]informer-sync ok',
      ...hooks.map((h) => `[+]${h} ok`),
      '[+]shutdown ok',
      'readyz check passed',
      '',
    ]);
    const one = await cluster.fetch(new Request('http://memkube/readyz/poststarthook/rbac/bootstrap-roles'));
    expect([one.status, await one.text()]).toEqual([200, 'ok']);
    expect((await cluster.fetch(new Request('http://memkube/livez/nope'))).status).toBe(404);
  });

  it('fail readyz shutdown and etcd once the cluster is closing', async () => {
    const c = await testCluster();
    const health = c.health;
    await c.close();
    const ready = await health.answer('/readyz', new URLSearchParams())!;
    expect(ready.status).toBe(500);
    expect(ready.body).toContain('[-]shutdown failed: reason withheld\n');
    expect(ready.body).toContain('[-]etcd failed: reason withheld\n');
    expect(await health.answer('/readyz/shutdown', new URLSearchParams())).toEqual({ status: 500, body: 'internal server error: process is shutting down\n' });
    // livez has no shutdown check.
    expect((await health.answer('/livez', new URLSearchParams({ exclude: 'etcd' }))!).status).toBe(200);
  });

  it("ask a storage's own probe, and fail etcd with its reason", async () => {
    const storage = new MemoryStorage();
    let down = false;
    const probed = Object.assign(storage, {
      check: async () => {
        if (down) throw new Error('context deadline exceeded');
      },
    });
    const health = apiServerHealthChecks({ storage: probed, closing: () => false, slis: true });
    expect((await health.answer('/healthz', new URLSearchParams()))!.status).toBe(200);
    down = true;
    expect(await health.answer('/healthz/etcd', new URLSearchParams())).toEqual({ status: 500, body: 'internal server error: context deadline exceeded\n' });
    const all = (await health.answer('/healthz', new URLSearchParams()))!;
    expect(all.status).toBe(500);
    expect(await health.slis!.value('cluster_healthcheck', { name: 'etcd', type: 'healthz' })).toBe(0);
    expect(await health.slis!.value('cluster_healthchecks_total', { name: 'etcd', type: 'healthz', status: 'error' })).toBe(1);
    expect(await health.slis!.value('cluster_healthchecks_total', { name: 'etcd', type: 'healthz', status: 'success' })).toBe(1);
  });
});
