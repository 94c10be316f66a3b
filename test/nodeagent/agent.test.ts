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

  it('restarts a failing container with back-off: at once, then CrashLoopBackOff for 10s, then 20s', async () => {
    h = await harness();
    await create(h, boundPod('crash', { containers: [{ name: 'main', image: 'busybox:1.36', command: ['exit', '1'] }] }));
    await h.agent.syncOnce(); // starts; it exits at once
    let s = (await h.pod('crash')).status as Json;
    expect(s.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(s.phase).toBe('Running');
    await h.agent.syncOnce(); // first restart: no back-off yet
    s = (await h.pod('crash')).status as Json;
    expect(s.containerStatuses[0].restartCount).toBe(1);
    await h.agent.syncOnce(); // exited again: back-off 10s
    s = (await h.pod('crash')).status as Json;
    const uid = (await h.pod('crash')).metadata?.uid;
    expect(s.containerStatuses[0]).toMatchObject({
      restartCount: 1,
      ready: false,
      state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 10s restarting failed container=main pod=crash_default(${uid})` } },
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    expect(s.conditions.find((c: Json) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [main]',
    });
    h.cluster.clock.advance(9_000);
    await h.agent.syncOnce();
    expect(((await h.pod('crash')).status as Json).containerStatuses[0].restartCount).toBe(1);
    h.cluster.clock.advance(1_000);
    await h.agent.syncOnce();
    expect(((await h.pod('crash')).status as Json).containerStatuses[0].restartCount).toBe(2);
    const creates = h.calls.filter((c) => c.method === 'createContainer').map((c) => (c.request as Json).config.logPath);
    expect(creates).toEqual(['main/0.log', 'main/1.log', 'main/2.log']);
    await h.agent.syncOnce();
    s = (await h.pod('crash')).status as Json;
    expect(s.containerStatuses[0].state.waiting.message).toMatch(/^back-off 20s /);
  });

  it('ends a Never pod Succeeded (exit 0) or Failed (exit 1), stopping its sandbox', async () => {
    h = await harness();
    await create(h, boundPod('ok', { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['exit', '0'] }] }));
    await create(h, boundPod('bad', { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['exit', '3'] }] }));
    await h.agent.syncOnce();
    const ok = (await h.pod('ok')).status as Json;
    expect(ok.phase).toBe('Succeeded');
    expect(ok.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(ok.conditions.find((c: Json) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    const bad = (await h.pod('bad')).status as Json;
    expect(bad.phase).toBe('Failed');
    expect(bad.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect((await h.runtime.listPodSandbox({})).items.map((s) => s.state)).toEqual(['SANDBOX_NOTREADY', 'SANDBOX_NOTREADY']);
    await h.agent.syncOnce();
    expect(h.calls.filter((c) => c.method === 'createContainer')).toHaveLength(2);
  });

  it('restarts an OnFailure container after a failure and finishes Succeeded after a success', async () => {
    h = await harness();
    await create(
      h,
      boundPod('job', { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox:1.36', command: ['exit', '1', 'then', '0'] }] }),
    );
    await h.agent.syncOnce();
    expect(((await h.pod('job')).status as Json).phase).toBe('Running');
    await h.agent.syncOnce();
    const s = (await h.pod('job')).status as Json;
    expect(s.containerStatuses[0]).toMatchObject({
      restartCount: 1,
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
      lastState: { terminated: { exitCode: 1 } },
    });
    expect(s.phase).toBe('Succeeded');
  });

  it('runs init containers one at a time before the containers', async () => {
    h = await harness();
    await create(
      h,
      boundPod('init', {
        initContainers: [
          { name: 'first', image: 'busybox:1.36', command: ['exit', '0', 'after', '1000'] },
          { name: 'second', image: 'busybox:1.36', command: ['exit', '0'] },
        ],
      }),
    );
    await h.agent.syncOnce();
    let s = (await h.pod('init')).status as Json;
    expect(s.phase).toBe('Pending');
    expect(s.initContainerStatuses.map((c: Json) => Object.keys(c.state)[0])).toEqual(['running', 'waiting']);
    expect(s.containerStatuses[0].state.waiting.reason).toBe('PodInitializing');
    expect(s.conditions.find((c: Json) => c.type === 'Initialized')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [first second]',
    });
    h.cluster.clock.advance(1000);
    await h.agent.syncOnce(); // second runs and exits at once
    await h.agent.syncOnce(); // main starts
    s = (await h.pod('init')).status as Json;
    expect(s.phase).toBe('Running');
    expect(s.initContainerStatuses.map((c: Json) => c.state.terminated?.reason)).toEqual(['Completed', 'Completed']);
    expect(h.calls.filter((c) => c.method === 'createContainer').map((c) => (c.request as Json).config.metadata.name)).toEqual(['first', 'second', 'main']);
  });

  it('reports ErrImagePull, then ImagePullBackOff while the pull back-off lasts', async () => {
    h = await harness();
    h.runtime.faults.failPulls('failed to resolve reference "docker.io/library/missing:1": not found');
    await create(h, boundPod('nopull', { containers: [{ name: 'main', image: 'missing:1' }] }));
    await h.agent.syncOnce();
    let w = ((await h.pod('nopull')).status as Json).containerStatuses[0].state.waiting;
    expect(w.reason).toBe('ErrImagePull');
    expect(w.message).toMatch(/^Failed to pull image "missing:1": /);
    await h.agent.syncOnce();
    w = ((await h.pod('nopull')).status as Json).containerStatuses[0].state.waiting;
    expect(w).toEqual({ reason: 'ImagePullBackOff', message: 'Back-off pulling image "missing:1"' });
    expect(((await h.pod('nopull')).status as Json).phase).toBe('Pending');
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
