import { afterEach, describe, expect, it } from 'vitest';
import { CriError } from '../../../src/cri/api.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import { createNodeAgent, type NodeAgent, type NodeAgentOptions } from '../../../src/nodeagent/agent.js';
import { boundPod, harness, HOST, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Json = Record<string, any>;

async function create(h: Harness, pod: Json): Promise<Json> {
  return h.kube.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
}

/** Another agent of the harness's node, on its cluster and runtime (the harness's own agent stays idle). */
function secondAgent(h: Harness, options: Partial<NodeAgentOptions>): NodeAgent {
  return createNodeAgent({
    kube: h.kube,
    runtime: h.runtime,
    serverPort: 10250,
    podLogsDir: `${h.logsDir}/pods`,
    rootDir: '/var/lib/kubelet',
    maxPods: 110,
    host: HOST,
    clock: h.cluster.clock,
    ...options,
  });
}

/** A harness whose agent counts into `registry`. */
const measured = (registry: MetricsRegistry): Promise<Harness> => harness({ metrics: registry });

describe('the node agent metrics, from the agent at work', () => {
  it('names its node, counts the pod and container it starts, and the runtime operations it made', async () => {
    const registry = new MetricsRegistry();
    h = await measured(registry);
    expect(h.agent.metrics).toBe(registry);
    expect(await registry.value('kubelet_node_name', { node: 'worker-1' })).toBe(1);
    await create(
      h,
      boundPod('web', {
        initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['exit', '0'] }],
      }),
    );
    await h.agent.syncOnce();
    await h.agent.syncOnce();
    expect(await registry.value('kubelet_started_pods_total')).toBe(1);
    expect(await registry.value('kubelet_started_pods_errors_total')).toBe(0);
    expect(await registry.value('kubelet_started_containers_total', { container_type: 'init_container' })).toBe(1);
    expect(await registry.value('kubelet_started_containers_total', { container_type: 'container' })).toBe(1);
    expect(await registry.value('kubelet_running_pods')).toBe(1);
    expect(await registry.value('kubelet_running_containers', { container_state: 'running' })).toBe(1);
    expect(await registry.value('kubelet_running_containers', { container_state: 'exited' })).toBe(1);
    for (const op of ['version', 'run_podsandbox', 'podsandbox_status', 'create_container', 'start_container', 'list_containers', 'list_podsandbox']) {
      expect(await registry.value('kubelet_runtime_operations_total', { operation_type: op }), op).toBeGreaterThan(0);
    }
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'run_podsandbox' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_duration_seconds', { operation_type: 'run_podsandbox' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_errors_total')).toBe(0);
    expect(await registry.value('kubelet_pod_worker_duration_seconds', { operation_type: 'create' })).toBe(1);
    expect(await registry.value('kubelet_pod_worker_duration_seconds', { operation_type: 'update' })).toBe(1);

    const text = await registry.text();
    expect(text).toContain('# HELP kubelet_runtime_operations_total [ALPHA] Cumulative number of runtime operations by operation type.\n');
    // ExponentialBuckets(.005, 2.5, 14): the last boundary as Go's step-by-step products give it.
    expect(text).toMatch(/^kubelet_runtime_operations_duration_seconds_bucket\{(?=.*operation_type="run_podsandbox").*le="745\.0580596923828"/m);
    expect(text).toContain(
      '# HELP kubelet_pod_start_duration_seconds [ALPHA] Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run\n',
    );
  });

  it('observes how long a pod took from first seen to running, as kubelet: its first sync, then Pending to Running', async () => {
    const registry = new MetricsRegistry();
    h = await measured(registry);
    await create(h, boundPod('slow', { initContainers: [{ name: 'wait', image: 'busybox:1.36', command: ['exit', '0', 'after', '7000'] }] }));
    await h.agent.syncOnce();
    expect((await h.pod('slow')).status?.phase).toBe('Pending');
    expect(await registry.value('kubelet_pod_start_duration_seconds')).toBe(1);
    expect(await registry.value('kubelet_pod_start_duration_seconds_sum')).toBe(0);
    h.cluster.clock.advance(7000);
    await h.agent.syncOnce();
    await h.agent.syncOnce();
    expect((await h.pod('slow')).status?.phase).toBe('Running');
    expect(await registry.value('kubelet_pod_start_duration_seconds')).toBe(2);
    expect(await registry.value('kubelet_pod_start_duration_seconds_sum')).toBe(7);
    // Running stays Running: nothing more is observed.
    await h.agent.syncOnce();
    expect(await registry.value('kubelet_pod_start_duration_seconds')).toBe(2);
    expect(await registry.value('kubelet_pod_worker_duration_seconds', { operation_type: 'sync' })).toBeGreaterThan(0);
  });

  it('counts a container that cannot start by kubelet error name, and a deleted pod as killed then terminated', async () => {
    const registry = new MetricsRegistry();
    h = await measured(registry);
    await create(h, boundPod('never', { containers: [{ name: 'main', image: 'example.com/absent:1', imagePullPolicy: 'Never' }] }));
    await h.agent.syncOnce();
    expect(await registry.value('kubelet_started_containers_total', { container_type: 'container' })).toBe(1);
    expect(await registry.value('kubelet_started_containers_errors_total', { container_type: 'container', code: 'ErrImageNeverPull' })).toBe(1);

    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/never');
    await h.agent.syncOnce();
    await h.agent.syncOnce();
    expect(await registry.value('kubelet_pod_worker_duration_seconds', { operation_type: 'kill' })).toBeGreaterThan(0);
    expect(await registry.value('kubelet_pod_worker_duration_seconds', { operation_type: 'terminated' })).toBe(1);
    expect(await registry.value('kubelet_running_pods')).toBe(0);
    expect(await registry.value('kubelet_running_containers')).toBe(0);
  });

  it('counts a sandbox the runtime refuses as a pod start error and a runtime operation error', async () => {
    const registry = new MetricsRegistry();
    h = await harness();
    const inner = h.runtime;
    const failing = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'runPodSandbox') return () => Promise.reject(new CriError(2, 'no sandboxes today'));
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const agent = secondAgent(h, { runtime: failing, metrics: registry });
    await create(h, boundPod('web'));
    await agent.syncOnce();
    expect(await registry.value('kubelet_started_pods_total')).toBe(1);
    expect(await registry.value('kubelet_started_pods_errors_total')).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_errors_total', { operation_type: 'run_podsandbox' })).toBe(1);
    expect(await registry.value('kubelet_runtime_operations_total', { operation_type: 'run_podsandbox' })).toBe(1);
  });

  it('counts its API server requests by code, method and host', async () => {
    const registry = new MetricsRegistry();
    h = await harness();
    const kube = kubeApiClientOverFetch(
      'http://memkube.invalid',
      createFetchHandler(h.cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }),
      { metrics: registry },
    );
    const agent = secondAgent(h, { kube, metrics: registry });
    await agent.syncOnce();
    // The node is looked for (404), registered (201), its lease made, its pods listed (200).
    expect(await registry.value('rest_client_requests_total', { code: '404', method: 'GET', host: 'memkube.invalid' })).toBeGreaterThan(0);
    expect(await registry.value('rest_client_requests_total', { code: '201', method: 'POST', host: 'memkube.invalid' })).toBeGreaterThan(0);
    expect(await registry.value('rest_client_requests_total', { code: '200', method: 'GET', host: 'memkube.invalid' })).toBeGreaterThan(0);
    expect(await registry.value('rest_client_request_duration_seconds', { verb: 'GET', host: 'memkube.invalid' })).toBeGreaterThan(0);
    const text = await registry.text();
    expect(text).toContain('# HELP rest_client_requests_total [ALPHA] Number of HTTP requests, partitioned by status code, method, and host.\n');
    expect(text).toMatch(/^rest_client_request_duration_seconds_bucket\{(?=.*host="memkube\.invalid")(?=.*verb="GET").*le="60"/m);
  });

  it('reports the sync loop unhealthy once no pass has run for 5 minutes, and healthy again after one', async () => {
    h = await harness();
    expect(h.agent.syncLoopHealth()).toBeUndefined();
    await h.agent.syncOnce();
    h.cluster.clock.advance(5 * 60_000);
    expect(h.agent.syncLoopHealth()).toBeUndefined();
    h.cluster.clock.advance(1);
    expect(h.agent.syncLoopHealth()).toBe('sync Loop took longer than expected');
    await h.agent.syncOnce();
    expect(h.agent.syncLoopHealth()).toBeUndefined();
  });

  it('counts nothing into a disabled registry', async () => {
    const registry = new MetricsRegistry({ disabled: true });
    h = await harness({ metrics: registry });
    await create(h, boundPod('web'));
    await h.agent.syncOnce();
    expect(await registry.samples()).toEqual([]);
    expect((await h.pod('web')).status?.phase).toBe('Running');
  });
});
