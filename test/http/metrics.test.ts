/**
 * The API server's metrics at the HTTP door: `/metrics` and `/metrics/slis`, who may read them,
 * requests counted once (never again by the engine), the refusals and unknown paths upstream does
 * not count, watch events with their sizes, response sizes, and hostile paths and methods.
 */
import { describe, expect, it } from 'vitest';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { useTestCluster, testCluster } from '../support/cluster.js';

const BASE = 'http://memkube';
const cluster = useTestCluster({
  authentication: {
    tokens: [
      { token: 'alice-token', user: { username: 'alice', uid: '1', groups: ['devs'] } },
      { token: 'prom-token', user: { username: 'prometheus', uid: '2', groups: ['system:monitoring'] } },
    ],
  },
  authorization: { modes: ['RBAC'] },
});

function fetchAs(token: string | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return cluster.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}
const admin = (path: string, init?: RequestInit) => fetchAs(cluster.adminToken, path, init);

describe('GET /metrics', () => {
  it('serves the Prometheus text format to system:monitoring', async () => {
    const res = await fetchAs('prom-token', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8; escaping=underscores');
    const text = await res.text();
    expect(text).toContain('# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb');
    expect(text).toContain('# TYPE apiserver_request_duration_seconds histogram');
    expect(text).toMatch(/apiserver_storage_objects\{resource="namespaces"\} 4/);
  });

  it('answers OpenMetrics, gzip and delimited protobuf when asked, as Prometheus asks', async () => {
    const open = await fetchAs('prom-token', '/metrics', { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(open.headers.get('content-type')).toMatch(/^application\/openmetrics-text; version=1\.0\.0; charset=utf-8/);
    expect((await open.text()).trimEnd().endsWith('# EOF')).toBe(true);
    const proto = await fetchAs('prom-token', '/metrics', {
      headers: {
        accept: 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1',
      },
    });
    expect(proto.status).toBe(200);
    expect(proto.headers.get('content-type')).toMatch(/^application\/vnd\.google\.protobuf; proto=io\.prometheus\.client\.MetricFamily; encoding=delimited/);
    const bytes = new Uint8Array(await proto.arrayBuffer());
    // A delimited MetricFamily starts with its length, then field 1 (the name) as a string.
    expect(bytes[1]).toBe(0x0a);
    expect(Buffer.from(bytes).includes(Buffer.from('apiserver_request_total'))).toBe(true);
    const text = (await fetchAs('prom-token', '/metrics')).headers.get('content-type');
    expect(text).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('refuses users the authorizer denies, and anonymous requests', async () => {
    expect((await fetchAs('alice-token', '/metrics')).status).toBe(403);
    const anonymous = await fetchAs(undefined, '/metrics');
    expect(anonymous.status).toBe(403);
    expect(((await anonymous.json()) as { message: string }).message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
    expect((await fetchAs('alice-token', '/metrics/slis')).status).toBe(403);
  });

  it('is listed at / with /metrics/slis', async () => {
    const paths = ((await (await admin('/')).json()) as { paths: string[] }).paths;
    expect(paths).toContain('/metrics');
    expect(paths).toContain('/metrics/slis');
  });
});

describe('request metrics over HTTP', () => {
  it('counts 3 LISTs of configmaps as 3, once each', async () => {
    for (let i = 0; i < 3; i++) expect((await admin('/api/v1/namespaces/default/configmaps')).status).toBe(200);
    const labels = { verb: 'LIST', resource: 'configmaps', scope: 'namespace', code: '200', component: 'apiserver', version: 'v1', group: '' };
    expect(await cluster.metrics.value('apiserver_request_total', labels)).toBe(3);
    expect(await cluster.metrics.value('apiserver_request_duration_seconds', { verb: 'LIST', resource: 'configmaps' })).toBe(3);
    expect(await cluster.metrics.value('apiserver_response_sizes', { verb: 'LIST', resource: 'configmaps' })).toBe(3);
    expect(await cluster.metrics.value('apiserver_response_sizes_sum', { verb: 'LIST', resource: 'configmaps' })).toBeGreaterThan(3 * 50);
    expect(await cluster.metrics.value('apiserver_cache_list_total', { resource: 'configmaps' })).toBe(3);
  });

  it('counts every request of several doors at each read, however many are waiting to be recorded', async () => {
    const mounted = createFetchHandler(cluster, { prefix: '/other' });
    const auth = { authorization: `Bearer ${cluster.adminToken}` };
    const labels = { verb: 'GET', resource: 'configmaps', scope: 'resource', code: '404', version: 'v1', group: '' };
    const before = await cluster.metrics.value('apiserver_request_total', labels);
    // More than a batch through one door, a few through another, and a read in between.
    for (let i = 0; i < 100; i++) expect((await admin(`/api/v1/namespaces/default/configmaps/absent-${i}`)).status).toBe(404);
    expect(await cluster.metrics.value('apiserver_request_total', labels)).toBe(before + 100);
    for (let i = 0; i < 5; i++)
      expect((await mounted(new Request(`${BASE}/other/api/v1/namespaces/default/configmaps/gone`, { headers: auth }))).status).toBe(404);
    expect((await admin('/api/v1/namespaces/default/configmaps/absent')).status).toBe(404);
    expect(await cluster.metrics.value('apiserver_request_total', labels)).toBe(before + 106);
    expect(
      await cluster.metrics.value('apiserver_request_duration_seconds', { verb: 'GET', resource: 'configmaps', scope: 'resource' }),
    ).toBeGreaterThanOrEqual(106);
  });

  it('counts requests to a door mounted under a prefix by the path without it', async () => {
    const mounted = createFetchHandler(cluster, { prefix: '/k8s' });
    const get = (path: string) => mounted(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${cluster.adminToken}` } }));
    const before = await cluster.metrics.value('apiserver_request_total', { verb: 'GET', subresource: '/readyz' });
    expect((await get('/k8s/readyz')).status).toBe(200);
    expect((await get('/k8s/api/v1/namespaces/default/configmaps?limit=1')).status).toBe(200);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'GET', subresource: '/readyz' })).toBe(before + 1);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'LIST', resource: 'configmaps', scope: 'namespace' })).toBeGreaterThan(0);
  });

  it('reads verbs and dry runs as upstream: APPLY for apply patches, POST with dry_run=All', async () => {
    const json = { 'content-type': 'application/json' };
    await admin('/api/v1/namespaces/default/configmaps?dryRun=All', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'd' } }) });
    await admin('/api/v1/namespaces/default/configmaps/a?fieldManager=t', {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }),
    });
    await admin('/api/v1/namespaces/default/configmaps/a');
    await admin('/api/v1/namespaces/default/configmaps?dryRun=Bogus', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'e' } }) });
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'POST', dry_run: 'All', code: '201', scope: 'resource' })).toBe(1);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'POST', dry_run: 'invalid', resource: 'configmaps' })).toBe(1);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'APPLY', code: '201', resource: 'configmaps' })).toBe(1);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'GET', code: '200', scope: 'resource', resource: 'configmaps' })).toBe(1);
    expect(await cluster.metrics.text()).not.toContain('Bogus');
  });

  it('does not count what authentication or authorization refused, as their filters run before any route', async () => {
    expect((await fetchAs('bad-token', '/api/v1/namespaces/default/configmaps')).status).toBe(401);
    expect((await fetchAs('alice-token', '/api/v1/namespaces/default/configmaps')).status).toBe(403);
    expect(await cluster.metrics.value('apiserver_request_total', { resource: 'configmaps' })).toBe(0);
  });

  it('counts a 404 of a served resource, never paths no route serves, whatever their number', async () => {
    expect((await admin('/api/v1/namespaces/default/configmaps/missing')).status).toBe(404);
    expect(await cluster.metrics.value('apiserver_request_total', { resource: 'configmaps', code: '404' })).toBe(1);
    const series = async () => (await cluster.metrics.samples()).filter((s) => s.name === 'apiserver_request_total').length;
    const before = await series();
    for (let i = 0; i < 1000; i++) {
      await admin(`/apis/g${i}.example/v1/things${i}`);
      await admin(`/api/v1/namespaces/default/configmaps/x/sub${i}`);
    }
    expect(await series()).toBe(before);
    expect(await cluster.metrics.text()).not.toMatch(/things17|sub17|g17\.example/);
  });

  it('answers hostile paths and methods without counting them', async () => {
    const before = await cluster.metrics.value('apiserver_request_total');
    const huge = `/api/v1/namespaces/${'x'.repeat(60_000)}/configmaps`;
    expect((await admin(huge)).status).toBe(200);
    for (const path of ['/%', '/api/v1/namespaces/%ZZ/configmaps', '/apis/../../etc', '/metrics/../metrics', '/healthz/%00']) {
      const res = await admin(path);
      expect(res.status).toBeLessThan(500);
    }
    expect((await admin('/api/v1/namespaces/default/configmaps', { method: 'PROPFIND' })).status).toBe(405);
    expect((await admin('/metrics', { method: 'DELETE' })).status).toBe(404);
    const text = await cluster.metrics.text();
    expect(text).not.toContain('xxxxxxxx');
    expect(text).not.toContain('PROPFIND');
    // The huge namespace is a real (empty) list: one LIST, labelled without the namespace's name.
    expect((await cluster.metrics.value('apiserver_request_total')) - before).toBe(1);
  });

  it('counts the health endpoints as upstream instruments them', async () => {
    await admin('/readyz');
    await admin('/readyz?verbose');
    await admin('/readyz/etcd');
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'GET', subresource: '/readyz', component: '', scope: '', code: '200' })).toBe(2);
    expect(await cluster.metrics.value('apiserver_request_total', { subresource: '/readyz/etcd' })).toBe(0);
  });
});

describe('watches over HTTP', () => {
  it('counts the events written with their sizes, and the watch once, when it ends', async () => {
    const controller = new AbortController();
    const res = await admin('/api/v1/namespaces/default/configmaps?watch=true', { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'w1', namespace: 'default' } });
    const chunk = await reader.read();
    expect(new TextDecoder().decode(chunk.value)).toContain('"ADDED"');
    const labels = { group: '', version: 'v1', resource: 'configmaps' };
    expect(await cluster.metrics.value('apiserver_watch_events_total', labels)).toBe(1);
    expect(await cluster.metrics.value('apiserver_watch_events_sizes', labels)).toBe(1);
    expect(await cluster.metrics.value('apiserver_watch_events_sizes_sum', labels)).toBe(chunk.value!.byteLength);
    expect(await cluster.metrics.value('apiserver_longrunning_requests', { verb: 'WATCH', resource: 'configmaps' })).toBe(1);
    await reader.cancel();
    for (let i = 0; i < 50 && cluster.activeWatchers > 0; i++) await new Promise((r) => setImmediate(r));
    await Promise.resolve();
    expect(await cluster.metrics.value('apiserver_longrunning_requests', { verb: 'WATCH', resource: 'configmaps' })).toBe(0);
    expect(await cluster.metrics.value('apiserver_request_total', { verb: 'WATCH', resource: 'configmaps', code: '200' })).toBe(1);
  });
});

describe('a cluster with metrics off', () => {
  it('serves no /metrics and counts nothing', async () => {
    const off = await testCluster({ metrics: false });
    try {
      const res = await off.fetch(new Request(`${BASE}/metrics`));
      expect(res.status).toBe(404);
      await off.fetch(new Request(`${BASE}/api/v1/namespaces/default/configmaps`));
      expect(await off.metrics.samples()).toEqual([]);
      const paths = ((await (await off.fetch(new Request(`${BASE}/`))).json()) as { paths: string[] }).paths;
      expect(paths).not.toContain('/metrics');
    } finally {
      await off.close();
    }
  });
});

describe('GET /metrics/slis', () => {
  it('serves the health check SLIs once the checks ran', async () => {
    await admin('/readyz');
    const res = await fetchAs('prom-token', '/metrics/slis');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('cluster_healthcheck{name="etcd",type="readyz"} 1');
    expect(text).toContain('cluster_healthchecks_total{name="shutdown",status="success",type="readyz"} 1');
  });

  it('is not served with ComponentSLIs off', async () => {
    const off = await testCluster({ featureGates: { ComponentSLIs: false } });
    try {
      expect((await off.fetch(new Request(`${BASE}/metrics/slis`))).status).toBe(404);
      expect((await off.fetch(new Request(`${BASE}/metrics`))).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
