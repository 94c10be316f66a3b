import { afterEach, describe, expect, it } from 'vitest';
import { CRI_LABELS } from '../../src/cri/api.js';
import { boundPod, harness, type Harness } from './support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Json = Record<string, any>;

async function create(h: Harness, pod: Json): Promise<Json> {
  return h.kube.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
}

describe('pods bound to the node', () => {
  it('runs a pod: sandbox and containers as kubelet configures them, status Running', async () => {
    h = await harness();
    const pod = await create(
      h,
      boundPod('web', {
        containers: [
          {
            name: 'main',
            image: 'busybox:1.36',
            command: ['sleep'],
            args: ['$(SECONDS)'],
            env: [
              { name: 'SECONDS', value: '3600' },
              { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            ],
            workingDir: '/work',
            ports: [{ containerPort: 80 }],
          },
        ],
      }),
    );
    const uid = pod.metadata.uid;
    await h.agent.syncOnce();

    const sandboxes = (await h.runtime.listPodSandbox({})).items;
    expect(sandboxes).toHaveLength(1);
    const sandbox = (await h.runtime.podSandboxStatus({ podSandboxId: sandboxes[0]!.id })).status;
    expect(sandbox.metadata).toEqual({ name: 'web', namespace: 'default', uid, attempt: 0 });
    expect(sandbox.labels).toEqual({ app: 'web', [CRI_LABELS.podName]: 'web', [CRI_LABELS.podNamespace]: 'default', [CRI_LABELS.podUid]: uid });
    const run = h.calls.find((c) => c.method === 'runPodSandbox')!.request as Json;
    expect(run.config.hostname).toBe('web');
    expect(run.config.logDirectory).toBe(`${h.logsDir}/pods/default_web_${uid}`);
    expect(run.config.linux.securityContext.namespaceOptions).toEqual({ network: 'POD', pid: 'CONTAINER', ipc: 'POD' });

    const created = h.calls.find((c) => c.method === 'createContainer')!.request as Json;
    expect(created.config).toMatchObject({
      metadata: { name: 'main', attempt: 0 },
      command: ['sleep'],
      args: ['3600'],
      workingDir: '/work',
      envs: [
        { key: 'SECONDS', value: '3600' },
        { key: 'NODE', value: 'worker-1' },
      ],
      logPath: 'main/0.log',
      labels: { [CRI_LABELS.podName]: 'web', [CRI_LABELS.podNamespace]: 'default', [CRI_LABELS.podUid]: uid, [CRI_LABELS.containerName]: 'main' },
    });
    expect(created.config.image.image).toMatch(/^sha256:/);
    expect(created.config.annotations).toMatchObject({
      'io.kubernetes.container.restartCount': '0',
      'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
      'io.kubernetes.container.ports': JSON.stringify([{ containerPort: 80, protocol: 'TCP' }]),
    });
    expect(created.config.annotations['io.kubernetes.container.hash']).toMatch(/^[0-9a-f]+$/);

    const [container] = (await h.runtime.listContainers({})).containers;
    expect(container!.state).toBe('CONTAINER_RUNNING');
    const got = await h.pod('web');
    const s = got.status as Json;
    expect(s.phase).toBe('Running');
    expect(s.hostIP).toBe('192.168.1.20');
    expect(s.podIP).toBe((await h.runtime.podSandboxStatus({ podSandboxId: sandbox.id })).status.network?.ip);
    expect(s.podIP).toBeTruthy();
    expect(s.startTime).toBe('2026-12-01T10:00:00Z');
    expect(s.qosClass).toBe('BestEffort');
    expect(s.containerStatuses).toEqual([
      {
        name: 'main',
        image: 'busybox:1.36',
        imageID: expect.stringMatching(/busybox/),
        containerID: `memkube://${container!.id}`,
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: '2026-12-01T10:00:00Z' } },
        lastState: {},
      },
    ]);
    expect(Object.fromEntries(s.conditions.map((c: Json) => [c.type, c.status]))).toEqual({
      PodReadyToStartContainers: 'True',
      Initialized: 'True',
      Ready: 'True',
      ContainersReady: 'True',
      PodScheduled: 'True',
    });
    expect(h.agent.pods.byName('default', 'web')?.status?.phase).toBe('Running');
    expect(h.agent.pods.all()).toHaveLength(1);

    // A second pass with nothing changed creates nothing and writes nothing.
    const before = h.calls.length;
    await h.agent.syncOnce();
    expect(h.calls.slice(before).filter((c) => /^(run|create|start|stop|remove)/.test(c.method))).toEqual([]);
  });

  it('gives a host-network pod the node network namespace, no hostname, and the host IP as pod IP', async () => {
    h = await harness();
    await create(h, boundPod('hostnet', { hostNetwork: true }));
    await h.agent.syncOnce();
    const run = h.calls.find((c) => c.method === 'runPodSandbox')!.request as Json;
    expect(run.config.hostname).toBeUndefined();
    expect(run.config.linux.securityContext.namespaceOptions.network).toBe('NODE');
    const s = (await h.pod('hostnet')).status as Json;
    expect(s.podIP).toBe('192.168.1.20');
    expect(s.podIPs).toEqual([{ ip: '192.168.1.20' }]);
  });

  it('stops a deleted pod with its grace period, then deletes it with grace period 0 and a uid precondition', async () => {
    h = await harness();
    await create(h, boundPod('gone', { terminationGracePeriodSeconds: 12 }));
    await h.agent.syncOnce();
    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/gone');
    const deleting = await h.pod('gone');
    expect(deleting.metadata?.['deletionTimestamp']).toBeTruthy();
    await h.agent.syncOnce();
    const stops = h.calls.filter((c) => c.method === 'stopContainer').map((c) => Number((c.request as Json).timeout));
    expect(stops).toEqual([12]);
    const uid = deleting.metadata?.uid;
    expect(h.requests.filter((r) => r.method === 'DELETE')).toEqual([
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/pods/gone',
        body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid } },
        query: undefined,
      },
    ]);
    // the last status written before the delete: every container terminated
    const lastPatch = h.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/gone/status')).at(-1)!.body as Json;
    expect(lastPatch.metadata).toEqual({ uid });
    expect(lastPatch.status.containerStatuses[0].state.terminated).toBeTruthy();
    await expect(h.pod('gone')).rejects.toMatchObject({ code: 404 });
    await h.agent.syncOnce();
    expect((await h.runtime.listContainers({})).containers).toEqual([]);
    expect((await h.runtime.listPodSandbox({})).items).toEqual([]);
    expect(h.agent.pods.all()).toEqual([]);
  });

  it('kills and removes what the runtime has of a pod removed from the API server at once', async () => {
    h = await harness();
    await create(h, boundPod('quick'));
    await h.agent.syncOnce();
    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/quick', { body: { gracePeriodSeconds: 0 } });
    await h.agent.syncOnce();
    expect((await h.runtime.listContainers({})).containers).toEqual([]);
    expect((await h.runtime.listPodSandbox({})).items).toEqual([]);
  });

  it('leaves pods of other nodes alone', async () => {
    h = await harness();
    await create(h, boundPod('elsewhere', {}, 'worker-2'));
    await h.agent.syncOnce();
    expect(h.calls.filter((c) => c.method === 'runPodSandbox')).toEqual([]);
  });
});

describe('a started agent', () => {
  it('registers, then runs a pod bound after it started, from the watch', async () => {
    // no periodic pass: only the watch's event can start the pod
    h = await harness({ podSyncPeriodMs: 600_000 });
    await h.agent.start();
    expect((await h.kube.request('GET', '/api/v1/nodes/worker-1')).metadata?.name).toBe('worker-1');
    await create(h, boundPod('late'));
    const deadline = Date.now() + 5000;
    let phase: unknown;
    while (Date.now() < deadline) {
      phase = ((await h.pod('late')).status as Json | undefined)?.phase;
      if (phase === 'Running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(phase).toBe('Running');
    await h.agent.stop();
  });
});
