import { afterEach, describe, expect, it } from 'vitest';
import { boundPod, harness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Json = Record<string, any>;

async function create(h: Harness, pod: Json): Promise<Json> {
  return h.kube.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
}

describe('container lifecycle', () => {
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

  it('replaces a sandbox that stopped with the next attempt and starts the containers in it again', async () => {
    h = await harness();
    await create(h, boundPod('resandbox'));
    await h.agent.syncOnce();
    const [first] = (await h.runtime.listPodSandbox({})).items;
    await h.runtime.stopPodSandbox({ podSandboxId: first!.id });
    await h.agent.syncOnce();
    const ready = (await h.runtime.listPodSandbox({})).items.filter((s) => s.state === 'SANDBOX_READY');
    expect(ready.map((s) => s.metadata.attempt)).toEqual([1]);
    const s = (await h.pod('resandbox')).status as Json;
    expect(s.phase).toBe('Running');
    expect(s.containerStatuses[0]).toMatchObject({ restartCount: 1, ready: true, lastState: { terminated: { exitCode: 0 } } });
  });

  it('gives a deleted pod at least kubelet’s minimum grace period of 2 seconds', async () => {
    h = await harness();
    await create(h, boundPod('fast'));
    await h.agent.syncOnce();
    await h.kube.request('DELETE', '/api/v1/namespaces/default/pods/fast', { body: { gracePeriodSeconds: 1 } });
    await h.agent.syncOnce();
    expect(h.calls.filter((c) => c.method === 'stopContainer').map((c) => Number((c.request as Json).timeout))).toEqual([2]);
  });

  it('stops and removes sandboxes of pods that no source knows', async () => {
    h = await harness();
    const orphan = await h.runtime.runPodSandbox({
      config: { metadata: { name: 'old', namespace: 'default', uid: 'gone-uid', attempt: 0 }, labels: { 'io.kubernetes.pod.uid': 'gone-uid' } },
    });
    const foreign = await h.runtime.runPodSandbox({ config: { metadata: { name: 'theirs', namespace: 'x', uid: 'u', attempt: 0 } } });
    await h.agent.syncOnce();
    const left = (await h.runtime.listPodSandbox({})).items.map((s) => s.id);
    expect(left).not.toContain(orphan.podSandboxId);
    // a sandbox without the agent's labels is not the agent's: it stays
    expect(left).toContain(foreign.podSandboxId);
  });
});

describe('environment from ConfigMaps and Secrets', () => {
  it('reads envFrom and valueFrom keys, and waits in CreateContainerConfigError while a source is missing', async () => {
    h = await harness();
    await h.kube.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { MODE: 'fast' } },
    });
    await create(
      h,
      boundPod('envy', {
        containers: [
          {
            name: 'main',
            image: 'busybox:1.36',
            envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
            env: [
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
              { name: 'OPTIONAL', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k', optional: true } } },
            ],
          },
        ],
      }),
    );
    await h.agent.syncOnce();
    expect(((await h.pod('envy')).status as Json).containerStatuses[0].state.waiting).toEqual({
      reason: 'CreateContainerConfigError',
      message: 'secret "creds" not found',
    });
    await h.kube.request('POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { password: Buffer.from('s3cret').toString('base64') } },
    });
    await h.agent.syncOnce();
    const created = h.calls.find((c) => c.method === 'createContainer')!.request as Json;
    expect(created.config.envs).toEqual([
      { key: 'CFG_MODE', value: 'fast' },
      { key: 'PASSWORD', value: 's3cret' },
    ]);
    expect(((await h.pod('envy')).status as Json).phase).toBe('Running');
  });
});
