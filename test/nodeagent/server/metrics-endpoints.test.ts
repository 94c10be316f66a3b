import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import type { KubeApiClient } from '../../../src/nodeagent/kube-api.js';
import { createNodeAgentServer, type NodeAgentServer, type NodeAgentServerOptions } from '../../../src/nodeagent/server/index.js';
import { FakeRuntime, plain, pod, podSource, secured, tempDir, type FakeContainer } from './fixtures.js';

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

describe('the node agent server: /metrics and /metrics/slis', () => {
  const tmp = tempDir();
  const runtime = new FakeRuntime();
  const web = pod('default', 'web', ['nginx']);
  const registry = new MetricsRegistry();
  let syncLoop: string | undefined;
  const servers: NodeAgentServer[] = [];
  let port = 0;
  let readOnlyPort = 0;

  async function start(overrides: Partial<NodeAgentServerOptions> = {}): Promise<{ port: number; readOnlyPort?: number }> {
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      hostname: 'node-a',
      rootDir: tmp.dir,
      nodeName: 'node-a',
      pods: podSource([web]),
      runtime: runtime.asRuntime(),
      ...overrides,
    });
    servers.push(server);
    return server.listen();
  }

  beforeAll(async () => {
    runtime.containers.push({ id: 'c1', pod: web, name: 'nginx', attempt: 0, state: 'CONTAINER_RUNNING', logPath: '/dev/null' } satisfies FakeContainer);
    const started = await start({ readOnlyPort: -1, metrics: registry, syncLoopHealth: () => syncLoop });
    port = started.port;
    readOnlyPort = started.readOnlyPort!;
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    tmp.remove();
  });

  it('serves the registry in the Prometheus text format, its own requests counted', async () => {
    await secured(port, '/healthz');
    const answer = await secured(port, '/metrics');
    expect([answer.status, answer.headers['content-type']]).toEqual([200, PROMETHEUS_TEXT]);
    expect(answer.body).toContain('# HELP kubelet_http_requests_total [ALPHA] Number of the http requests received since the server started\n');
    expect(answer.body).toContain('# TYPE kubelet_http_requests_total counter\n');
    expect(answer.body).toContain('kubelet_http_requests_total{long_running="false",method="GET",path="healthz",server_type="readwrite"} 1\n');
    // The scrape itself is in flight while it is written.
    expect(answer.body).toContain('kubelet_http_inflight_requests{long_running="false",method="GET",path="metrics",server_type="readwrite"} 1\n');
    expect(await registry.value('kubelet_http_inflight_requests')).toBe(0);
    expect(await registry.value('kubelet_http_requests_duration_seconds', { path: 'healthz', server_type: 'readwrite' })).toBe(1);
    const openMetrics = await secured(port, '/metrics', { headers: { Accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(openMetrics.headers['content-type']).toMatch(/^application\/openmetrics-text; version=1\.0\.0; charset=utf-8/);
    expect(openMetrics.body.trimEnd().endsWith('# EOF')).toBe(true);
    const protobuf = await secured(port, '/metrics', {
      headers: { Accept: 'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3' },
    });
    expect(protobuf.headers['content-type']).toMatch(/^application\/vnd\.google\.protobuf; proto=io\.prometheus\.client\.MetricFamily; encoding=delimited/);
    const head = await secured(port, '/metrics', { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, '']);
  });

  it('bounds the labels: unknown methods and paths are "other", whatever the caller sends', async () => {
    const before = await registry.value('kubelet_http_requests_total', { path: 'other' });
    const hostile = ['/metrics/../../etc/passwd', '/%ZZ', `/${'x'.repeat(4000)}`, '/pods%2F..%2Fsecrets', '/metrics/slis', '/metrics/cadvisor/../../x'];
    const statuses = [];
    for (const path of hostile) statuses.push((await secured(port, path)).status);
    expect(statuses).toEqual([301, 400, 404, 404, 200, 301]);
    expect(await registry.value('kubelet_http_requests_total', { path: 'other' })).toBe(before + 4);
    // `/metrics/cadvisor/..` is a bucket of its own, as kubelet's getURLRootPath keeps two segments of a metrics path.
    expect(await registry.value('kubelet_http_requests_total', { path: 'metrics/cadvisor' })).toBe(1);
    // Go's URL.Path is decoded: `/pods%2F..%2Fsecrets` is a pods request (the mux then answers 404).
    expect(await registry.value('kubelet_http_requests_total', { path: 'pods' })).toBe(1);
    await secured(port, '/pods', { method: 'PATCH' });
    await secured(port, '/pods', { method: 'PROPFIND' });
    expect(await registry.value('kubelet_http_requests_total', { method: 'other', path: 'pods' })).toBe(2);
    const text = await registry.text();
    expect(text).not.toContain('passwd');
    expect(text).not.toContain('xxxx');
    expect(text).not.toContain('PROPFIND');
  });

  it('marks exec and attach long-running, and the read-only port readonly', async () => {
    expect((await plain(readOnlyPort, '/exec/default/web/nginx')).status).toBe(405);
    expect((await plain(readOnlyPort, '/portForward/default/web')).status).toBe(405);
    expect(await registry.value('kubelet_http_requests_total', { path: 'exec', long_running: 'true', server_type: 'readonly' })).toBe(1);
    // kubelet's long-running table says "portforward": the "portForward" bucket never matches it.
    expect(await registry.value('kubelet_http_requests_total', { path: 'portForward', long_running: 'false', server_type: 'readonly' })).toBe(1);
  });

  it('serves /metrics and /metrics/slis on the read-only port too, as kubelet installs them without authorization', async () => {
    const metrics = await plain(readOnlyPort, '/metrics');
    expect([metrics.status, metrics.headers['content-type']]).toEqual([200, PROMETHEUS_TEXT]);
    expect(metrics.body).toContain('server_type="readonly"');
    expect((await plain(readOnlyPort, '/metrics/slis')).status).toBe(200);
  });

  it('records every /healthz run in the SLI metrics, failures included', async () => {
    await secured(port, '/healthz');
    let slis = (await secured(port, '/metrics/slis')).body;
    expect(slis).toContain('# HELP cluster_healthcheck [STABLE] This metric records the result of a single healthcheck.\n');
    expect(slis).toContain('cluster_healthcheck{name="syncloop",type="healthz"} 1\n');
    expect(slis).toContain('cluster_healthcheck{name="ping",type="healthz"} 1\n');
    expect(slis).toContain('cluster_healthcheck{name="log",type="healthz"} 1\n');
    const successes = Number(/cluster_healthchecks_total\{name="syncloop",status="success",type="healthz"\} (\d+)/.exec(slis)![1]);
    expect(successes).toBeGreaterThanOrEqual(1);
    syncLoop = 'sync Loop took longer than expected';
    try {
      expect((await secured(port, '/healthz')).status).toBe(500);
    } finally {
      syncLoop = undefined;
    }
    slis = (await secured(port, '/metrics/slis')).body;
    expect(slis).toContain('cluster_healthcheck{name="syncloop",type="healthz"} 0\n');
    expect(slis).toContain('cluster_healthchecks_total{name="syncloop",status="error",type="healthz"} 1\n');
    expect(slis).toContain('cluster_healthcheck{name="ping",type="healthz"} 1\n');
    // One check's own path is not an SLI run (k8s.io/apiserver records only the root handler's checks).
    await secured(port, '/healthz/ping');
    const after = (await secured(port, '/metrics/slis')).body;
    expect(/cluster_healthchecks_total\{name="ping",status="success",type="healthz"\} (\d+)/.exec(after)![1]).toBe(
      /cluster_healthchecks_total\{name="ping",status="success",type="healthz"\} (\d+)/.exec(slis)![1],
    );
    // The SLIs are their own registry: the agent's /metrics does not carry them.
    expect((await secured(port, '/metrics')).body).not.toContain('cluster_healthcheck');
  });

  it("empties the SLIs on DELETE /metrics/slis, as component-base's reset handler does", async () => {
    const own = await start({ readOnlyPort: -1 });
    await secured(own.port, '/healthz');
    expect((await secured(own.port, '/metrics/slis')).body).toContain('cluster_healthcheck{name="ping",type="healthz"} 1\n');
    const reset = await plain(own.readOnlyPort!, '/metrics/slis', 'DELETE');
    expect([reset.status, reset.body]).toEqual([200, 'metrics reset\n']);
    expect((await secured(own.port, '/metrics/slis')).body).not.toContain('cluster_healthcheck{');
    await secured(own.port, '/healthz');
    expect((await secured(own.port, '/metrics/slis')).body).toContain('cluster_healthchecks_total{name="ping",status="success",type="healthz"} 1\n');
  });

  it('serves no /metrics/slis with ComponentSLIs off, and /healthz all the same', async () => {
    const off = await start({ featureGates: { ComponentSLIs: false } });
    expect((await secured(off.port, '/metrics/slis')).status).toBe(404);
    expect((await secured(off.port, '/healthz')).body).toBe('ok');
    expect((await secured(off.port, '/metrics')).status).toBe(200);
  });

  it('counts the CRI calls it makes itself, a failed checkpoint as an error', async () => {
    runtime.checkpointError = new Error('rpc error: code = Unknown desc = no space');
    try {
      expect((await secured(port, '/checkpoint/default/web/nginx', { method: 'POST' })).status).toBe(500);
    } finally {
      runtime.checkpointError = undefined;
    }
    expect((await secured(port, '/checkpoint/default/web/nginx', { method: 'POST' })).status).toBe(200);
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'checkpoint_container' })).toBe(2);
    expect(await registry.value('kubelet_runtime_operations_errors_total', { operation_type: 'checkpoint_container' })).toBe(1);
    expect(await registry.value('kubelet_http_requests_total', { path: 'checkpoint', method: 'POST' })).toBe(2);
  });
});

describe('the node agent server: who may read the metrics', () => {
  const tmp = tempDir();
  let cluster: Cluster;
  let kube: KubeApiClient;
  const servers: NodeAgentServer[] = [];

  async function start(overrides: Partial<NodeAgentServerOptions>): Promise<number> {
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      hostname: 'node-a',
      rootDir: tmp.dir,
      nodeName: 'node-a',
      pods: podSource([]),
      runtime: new FakeRuntime().asRuntime(),
      kube,
      authentication: { anonymous: false, webhook: { enabled: true } },
      authorization: { mode: 'Webhook' },
      ...overrides,
    });
    servers.push(server);
    return (await server.listen()).port;
  }

  beforeAll(async () => {
    cluster = await createCluster({
      authentication: {
        tokens: [
          { token: 'scraper-token', user: { username: 'prometheus', groups: ['monitoring'] } },
          { token: 'nobody-token', user: { username: 'nobody', groups: [] } },
        ],
      },
      authorization: { modes: ['RBAC'] },
    });
    kube = kubeApiClientOverFetch('http://memkube.invalid', createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }));
    const rbac = 'rbac.authorization.k8s.io/v1';
    await kube.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'scrape' }, rules: [{ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] }] },
    });
    await kube.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      body: {
        apiVersion: rbac,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'scrape' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'scrape' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'monitoring' }],
      },
    });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await cluster.close();
    tmp.remove();
  });

  it('answers 401 without credentials when anonymous requests are off', async () => {
    const port = await start({});
    for (const path of ['/metrics', '/metrics/slis']) {
      const answer = await secured(port, path);
      expect([answer.status, answer.body]).toEqual([401, 'Unauthorized']);
    }
  });

  it('asks for get on the metrics subresource of the node: 403 when the review denies it, the metrics when it allows', async () => {
    const port = await start({});
    const denied = await secured(port, '/metrics', { token: 'nobody-token' });
    expect([denied.status, denied.body]).toEqual([403, 'Forbidden (user=nobody, verb=get, resource=nodes, subresource(s)=[metrics])\n']);
    const slis = await secured(port, '/metrics/slis', { token: 'nobody-token' });
    expect([slis.status, slis.body]).toEqual([403, 'Forbidden (user=nobody, verb=get, resource=nodes, subresource(s)=[metrics])\n']);
    const allowed = await secured(port, '/metrics', { token: 'scraper-token' });
    expect([allowed.status, allowed.headers['content-type']]).toEqual([200, PROMETHEUS_TEXT]);
    expect(allowed.body).toContain('kubelet_http_requests_total{long_running="false",method="GET",path="metrics",server_type="readwrite"}');
    expect((await secured(port, '/metrics/slis', { token: 'scraper-token' })).status).toBe(200);
  });
});
