import { afterEach, describe, expect, it } from 'vitest';
import { harness, HOST, type Harness } from '../support/agent-harness.js';
import type { KubeObjectJson } from '../../../src/nodeagent/kube-api.js';

type NodeJson = KubeObjectJson & { status: Record<string, any>; spec: Record<string, unknown> };

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('node registration and status', () => {
  it('registers the Node as kubelet makes it', async () => {
    h = await harness({ nodeIp: '10.0.0.5', nodeLabels: { 'node-role.kubernetes.io/worker': '' } });
    expect(h.agent.nodeName).toBe('worker-1');
    await h.agent.syncOnce();
    const node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(node.metadata?.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'worker-1',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/worker': '',
    });
    expect(node.metadata?.['annotations']).toMatchObject({ 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' });
    const s = node.status;
    expect(s.addresses).toEqual([
      { type: 'InternalIP', address: '10.0.0.5' },
      { type: 'Hostname', address: 'worker-1' },
    ]);
    // the API server writes quantities canonically: 8388608Ki is 8Gi
    expect(s.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-2Mi': '0' });
    expect(s.allocatable).toMatchObject({
      cpu: '4',
      memory: '8092Mi',
      pods: '110',
      'ephemeral-storage': String(100 * 1024 ** 3 - Math.ceil(100 * 1024 ** 3 * 0.1)),
    });
    expect(s.nodeInfo).toMatchObject({
      machineID: HOST.machineID,
      systemUUID: HOST.systemUUID,
      bootID: HOST.bootID,
      kernelVersion: '6.8.0-45-generic',
      osImage: 'Ubuntu 24.04.1 LTS',
      containerRuntimeVersion: 'memkube://0.1.0',
      kubeletVersion: 'v1.36.0',
      operatingSystem: 'linux',
      architecture: 'amd64',
    });
    expect(s.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    const ready = s.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastHeartbeatTime: '2026-12-01T10:00:00Z',
    });
    expect(s.conditions.map((c: { type: string; status: string; reason: string }) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
      'MemoryPressure=False/KubeletHasSufficientMemory',
      'DiskPressure=False/KubeletHasNoDiskPressure',
      'PIDPressure=False/KubeletHasSufficientPID',
      'Ready=True/KubeletReady',
    ]);
  });

  it('uses the first non-loopback IPv4 address without a node IP, and the hostname override', async () => {
    h = await harness({ hostnameOverride: 'Edge-A' });
    expect(h.agent.nodeName).toBe('edge-a');
    await h.agent.syncOnce();
    const node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/edge-a');
    expect(node.status.addresses[0]).toEqual({ type: 'InternalIP', address: '192.168.1.20' });
  });

  it('adopts an existing Node (409) and restores its default labels', async () => {
    h = await harness();
    await h.kube.request('POST', '/api/v1/nodes', {
      body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', labels: { 'kubernetes.io/os': 'plan9', keep: 'me' } } },
    });
    await h.agent.syncOnce();
    const node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(node.metadata?.labels).toMatchObject({ 'kubernetes.io/os': 'linux', keep: 'me', 'kubernetes.io/hostname': 'worker-1' });
  });

  it('reports Ready False with the runtime state when the runtime is not ready, and updates status each nodeStatusUpdateFrequency', async () => {
    h = await harness({ nodeStatusUpdateFrequencyMs: 10_000 });
    await h.agent.syncOnce();
    h.runtime.setCondition('RuntimeReady', false, 'Stopped', 'the runtime is stopped');
    h.cluster.clock.advance(5_000);
    await h.agent.syncOnce();
    let node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
    h.cluster.clock.advance(5_000);
    await h.agent.syncOnce();
    node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime not ready: RuntimeReady=false reason:Stopped message:the runtime is stopped',
      lastHeartbeatTime: '2026-12-01T10:00:10Z',
      lastTransitionTime: '2026-12-01T10:00:10Z',
    });
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'MemoryPressure').lastTransitionTime).toBe('2026-12-01T10:00:00Z');
  });
});

describe('node lease', () => {
  it('creates kube-node-lease/<node> owned by the Node and renews it every quarter of its duration', async () => {
    h = await harness();
    await h.agent.syncOnce();
    const node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/worker-1';
    let lease = await h.kube.request<KubeObjectJson & { spec: Record<string, unknown> }>('GET', path);
    expect(lease.spec).toEqual({ holderIdentity: 'worker-1', leaseDurationSeconds: 40, renewTime: '2026-12-01T10:00:00.000000Z' });
    expect(lease.metadata?.['ownerReferences']).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'worker-1', uid: node.metadata?.uid }]);
    h.cluster.clock.advance(9_999);
    await h.agent.syncOnce();
    lease = await h.kube.request('GET', path);
    expect(lease.spec['renewTime']).toBe('2026-12-01T10:00:00.000000Z');
    h.cluster.clock.advance(1);
    await h.agent.syncOnce();
    lease = await h.kube.request('GET', path);
    expect(lease.spec['renewTime']).toBe('2026-12-01T10:00:10.000000Z');
  });
});

describe('node status when things go wrong', () => {
  it('says the runtime is down once its status cannot be read any more', async () => {
    h = await harness();
    await h.agent.syncOnce();
    h.runtime.status = async () => {
      throw new Error('connection refused');
    };
    h.cluster.clock.advance(10_000);
    await h.agent.syncOnce();
    const node = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'container runtime is down',
    });
  });

  it('registers the Node again when it was deleted', async () => {
    h = await harness();
    await h.agent.syncOnce();
    const first = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    await h.kube.request('DELETE', '/api/v1/nodes/worker-1');
    h.cluster.clock.advance(10_000);
    await h.agent.syncOnce();
    const again = await h.kube.request<NodeJson>('GET', '/api/v1/nodes/worker-1');
    expect(again.metadata?.uid).not.toBe(first.metadata?.uid);
    expect(again.status.nodeInfo.bootID).toBe(HOST.bootID);
  });
});
