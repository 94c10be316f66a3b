/**
 * memkube's CRI client against a real containerd (Debian's 1.6, CRI plugin, runc; see
 * test/support/containerd/start.ts): version, status, a host-network sandbox, image status and pull, a
 * busybox container that runs and logs in the CRI format, checkpointing (which containerd 1.6 does
 * not implement), and stopping and removing everything.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodSandboxConfig } from '../../src/cri/api.js';
import { CriError } from '../../src/cri/api.js';
import { createCriClient, type CriClient } from '../../src/cri/client.js';
import { startContainerd, type RunningContainerd } from '../support/containerd/start.js';
import { eventually } from '../support/memkube-process.js';

describe('the CRI client against containerd 1.6', () => {
  let containerd: RunningContainerd;
  let cri: CriClient;
  let logDirectory: string;
  let sandboxConfig: PodSandboxConfig;
  let podSandboxId: string;
  let containerId: string;

  beforeAll(async () => {
    containerd = await startContainerd();
    cri = createCriClient(containerd.endpoint);
    logDirectory = join(containerd.dir, 'pods', 'default_hello_uid-1');
    mkdirSync(logDirectory, { recursive: true });
    sandboxConfig = {
      metadata: { name: 'hello', uid: 'uid-1', namespace: 'default', attempt: 0 },
      // A host-network sandbox shares the node's UTS namespace: runc refuses to set a hostname there.
      hostname: '',
      logDirectory,
      labels: { 'io.kubernetes.pod.name': 'hello' },
      linux: { securityContext: { namespaceOptions: { network: 'NODE' } } },
    };
  }, 300_000);

  afterAll(async () => {
    cri?.close();
    await containerd?.stop();
  });

  it('reports containerd 1.6 speaking CRI v1', async () => {
    const version = await cri.version({});
    expect(version.runtimeName).toBe('containerd');
    expect(version.runtimeVersion).toMatch(/^1\.6\./);
    expect(version.runtimeApiVersion).toBe('v1');
  });

  it('reports the runtime ready and the network not, as there is no CNI plugin (host-network pods still run)', async () => {
    const { status } = await cri.status({});
    const conditions = Object.fromEntries(status.conditions.map((c) => [c.type, c]));
    expect(conditions.RuntimeReady).toEqual({ type: 'RuntimeReady', status: true, reason: '', message: '' });
    expect(conditions.NetworkReady).toEqual({
      type: 'NetworkReady',
      status: false,
      reason: 'NetworkPluginNotReady',
      message: 'Network plugin returns error: cni plugin not initialized',
    });
  });

  it('runs a host-network sandbox', async () => {
    ({ podSandboxId } = await cri.runPodSandbox({ config: sandboxConfig }));
    expect(podSandboxId).toMatch(/^[0-9a-f]{64}$/);
    const { status } = await cri.podSandboxStatus({ podSandboxId });
    expect(status.state).toBe('SANDBOX_READY');
    expect(status.metadata.name).toBe('hello');
  });

  it('finds the imported busybox image, and pulls it from the harness registry', async () => {
    const { image } = await cri.imageStatus({ image: { image: containerd.images.busybox } });
    expect(image?.repoTags).toContain(containerd.images.busybox);
    expect(image?.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { imageRef } = await cri.pullImage({ image: { image: containerd.images.busybox }, sandboxConfig });
    expect(imageRef).toBe(image?.id);
    expect((await cri.imageStatus({ image: { image: 'memkube.test/absent:1' } })).image).toBeUndefined();
  });

  it('creates and starts a container whose output reaches its log file in the CRI format', async () => {
    ({ containerId } = await cri.createContainer({
      podSandboxId,
      sandboxConfig,
      config: {
        metadata: { name: 'main', attempt: 0 },
        image: { image: containerd.images.busybox },
        command: ['sh', '-c', 'echo hello; sleep 1000'],
        logPath: 'main/0.log',
        labels: { 'io.kubernetes.container.name': 'main' },
      },
    }));
    await cri.startContainer({ containerId });
    const { containers } = await cri.listContainers({ filter: { podSandboxId } });
    expect(containers.map((c) => [c.id, c.state, c.metadata.name])).toEqual([[containerId, 'CONTAINER_RUNNING', 'main']]);
    const log = await eventually('the container log', async () => {
      const text = readFileSync(join(logDirectory, 'main/0.log'), 'utf8');
      return text.includes('hello') ? text : undefined;
    });
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z stdout F hello\n$/);
    const { status } = await cri.containerStatus({ containerId });
    expect(status.logPath).toBe(join(logDirectory, 'main/0.log'));
  });

  it('answers UNIMPLEMENTED to CheckpointContainer, as containerd 1.6 has no checkpointing over CRI', async () => {
    const error = await cri.checkpointContainer({ containerId, location: join(containerd.dir, 'checkpoint.tar'), timeout: 0n }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CriError);
    expect((error as CriError).code).toBe(12);
    // containerd's exact text: the generated server's default for a method it does not implement.
    expect((error as CriError).details).toBe('method CheckpointContainer not implemented');
    expect((error as CriError).message).toBe('rpc error: code = Unimplemented desc = method CheckpointContainer not implemented');
  });

  it('stops and removes the container and the sandbox', async () => {
    await cri.stopContainer({ containerId, timeout: 0n });
    const { status } = await cri.containerStatus({ containerId });
    // No grace period: SIGKILL, so 128 + 9, which containerd reports as an Error.
    expect([status.state, status.exitCode, status.reason]).toEqual(['CONTAINER_EXITED', 137, 'Error']);
    await cri.removeContainer({ containerId });
    await cri.stopPodSandbox({ podSandboxId });
    await cri.removePodSandbox({ podSandboxId });
    expect((await cri.listContainers({})).containers).toEqual([]);
    expect((await cri.listPodSandbox({})).items).toEqual([]);
  });
});
