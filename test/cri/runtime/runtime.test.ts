import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CombinedClock } from '../../../src/clock.js';
import { CriError, type ContainerConfig, type PodSandboxConfig } from '../../../src/cri/api.js';
import { createInProcessCriRuntime, readTar, type ContainerBehaviour, type InProcessCriRuntime } from '../../../src/cri/runtime/index.js';

const START = Date.UTC(2026, 11, 1, 10, 0, 0);
let dir: string;
let clock: CombinedClock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-cri-'));
  clock = new CombinedClock({ frozenAt: START });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sandboxConfig(name = 'web', extra: Partial<PodSandboxConfig> = {}): PodSandboxConfig {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, attempt: 0 },
    logDirectory: join(dir, 'pods', `default_${name}_uid-${name}`),
    labels: { 'io.kubernetes.pod.name': name, app: name },
    ...extra,
  };
}

function containerConfig(name = 'app', extra: Partial<ContainerConfig> = {}): ContainerConfig {
  return { metadata: { name, attempt: 0 }, image: { image: 'nginx' }, logPath: `${name}/0.log`, labels: { c: name }, ...extra };
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(CriError);
    return { code: (e as CriError).code, details: (e as CriError).details };
  }
  throw new Error('expected the call to fail');
}

async function runningContainer(runtime: InProcessCriRuntime, name = 'app'): Promise<{ sandboxId: string; containerId: string }> {
  await runtime.pullImage({ image: { image: 'nginx' } });
  const config = sandboxConfig();
  const { podSandboxId } = await runtime.runPodSandbox({ config });
  const { containerId } = await runtime.createContainer({ podSandboxId, config: containerConfig(name), sandboxConfig: config });
  await runtime.startContainer({ containerId });
  return { sandboxId: podSandboxId, containerId };
}

function make(behaviour?: (c: ContainerConfig) => ContainerBehaviour | undefined, images?: string[]): InProcessCriRuntime {
  return createInProcessCriRuntime({ clock, containers: behaviour, ...(images ? { images } : {}) });
}

describe('memkube CRI runtime: version and status', () => {
  it('answers Version as memkube speaking v1', async () => {
    const v = await make().version({ version: 'v1' });
    expect(v).toEqual({ version: '0.1.0', runtimeName: 'memkube', runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' });
  });

  it('reports RuntimeReady and NetworkReady, and a condition set by hand', async () => {
    const runtime = make();
    expect((await runtime.status({})).status.conditions.map((c) => [c.type, c.status])).toEqual([
      ['RuntimeReady', true],
      ['NetworkReady', true],
    ]);
    runtime.setCondition('NetworkReady', false, 'NetworkPluginNotReady', 'cni plugin not initialized');
    const network = (await runtime.status({})).status.conditions.find((c) => c.type === 'NetworkReady');
    expect(network).toEqual({ type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'cni plugin not initialized' });
  });
});

describe('memkube CRI runtime: sandboxes', () => {
  it('runs a ready sandbox with a 64-hex id and an IP, stops and removes it', async () => {
    const runtime = make();
    const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig() });
    expect(podSandboxId).toMatch(/^[0-9a-f]{64}$/);
    const status = await runtime.podSandboxStatus({ podSandboxId });
    expect(status.status.state).toBe('SANDBOX_READY');
    expect(status.status.createdAt).toBe(BigInt(START) * 1_000_000n);
    expect(status.status.network?.ip).toMatch(/^10\.88\.\d+\.\d+$/);
    await runtime.stopPodSandbox({ podSandboxId });
    expect((await runtime.podSandboxStatus({ podSandboxId })).status.state).toBe('SANDBOX_NOTREADY');
    await runtime.removePodSandbox({ podSandboxId });
    expect((await codeOf(runtime.podSandboxStatus({ podSandboxId }))).code).toBe(5);
    // Removing again succeeds, as containerd's does.
    await runtime.removePodSandbox({ podSandboxId });
  });

  it('gives a host-network sandbox no IP of its own', async () => {
    const runtime = make();
    const config = sandboxConfig('h', { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
    const { podSandboxId } = await runtime.runPodSandbox({ config });
    expect((await runtime.podSandboxStatus({ podSandboxId })).status.network?.ip).toBe('');
  });

  it('refuses a second sandbox of the same name and attempt, as containerd reserves names', async () => {
    const runtime = make();
    const first = await runtime.runPodSandbox({ config: sandboxConfig() });
    const err = await codeOf(runtime.runPodSandbox({ config: sandboxConfig() }));
    expect(err.code).toBe(2);
    expect(err.details).toBe(`failed to reserve sandbox name "web_default_uid-web_0": name "web_default_uid-web_0" is reserved for "${first.podSandboxId}"`);
  });

  it('lists sandboxes by id prefix, state and labels', async () => {
    const runtime = make();
    const a = await runtime.runPodSandbox({ config: sandboxConfig('a') });
    const b = await runtime.runPodSandbox({ config: sandboxConfig('b') });
    await runtime.stopPodSandbox({ podSandboxId: b.podSandboxId });
    const ids = async (filter: object): Promise<string[]> => (await runtime.listPodSandbox({ filter })).items.map((i) => i.id);
    expect((await ids({})).sort()).toEqual([a.podSandboxId, b.podSandboxId].sort());
    expect(await ids({ id: a.podSandboxId.slice(0, 12) })).toEqual([a.podSandboxId]);
    expect(await ids({ state: 'SANDBOX_READY' })).toEqual([a.podSandboxId]);
    expect(await ids({ labelSelector: { app: 'b' } })).toEqual([b.podSandboxId]);
    expect(await ids({ labelSelector: { app: 'b', missing: 'x' } })).toEqual([]);
    expect(await ids({ id: 'ffff-unknown' })).toEqual([]);
  });

  it('fails RunPodSandbox as injected, once', async () => {
    const runtime = make();
    runtime.faults.failRunPodSandbox('failed to setup network for sandbox: plugin type="bridge" failed', { times: 1 });
    const err = await codeOf(runtime.runPodSandbox({ config: sandboxConfig() }));
    expect(err).toEqual({ code: 2, details: 'failed to setup network for sandbox: plugin type="bridge" failed' });
    await runtime.runPodSandbox({ config: sandboxConfig() });
  });
});

describe('memkube CRI runtime: containers', () => {
  it('goes created → running → exited on stop, with timestamps, reason and the image ref', async () => {
    const runtime = make();
    await runtime.pullImage({ image: { image: 'nginx' } });
    const config = sandboxConfig();
    const { podSandboxId } = await runtime.runPodSandbox({ config });
    const { containerId } = await runtime.createContainer({ podSandboxId, config: containerConfig(), sandboxConfig: config });
    expect(containerId).toMatch(/^[0-9a-f]{64}$/);
    expect((await runtime.containerStatus({ containerId })).status.state).toBe('CONTAINER_CREATED');
    clock.advance(1000);
    await runtime.startContainer({ containerId });
    const running = (await runtime.containerStatus({ containerId })).status;
    expect(running.state).toBe('CONTAINER_RUNNING');
    expect(running.startedAt).toBe(BigInt(START + 1000) * 1_000_000n);
    expect(running.image.image).toBe('docker.io/library/nginx:latest');
    expect(running.imageRef).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(running.logPath).toBe(join(config.logDirectory!, 'app/0.log'));
    clock.advance(500);
    await runtime.stopContainer({ containerId, timeout: 30n });
    const exited = (await runtime.containerStatus({ containerId })).status;
    expect(exited).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    expect(exited.finishedAt).toBe(BigInt(START + 1500) * 1_000_000n);
    // Stopping an exited container does nothing; starting it again is refused.
    await runtime.stopContainer({ containerId, timeout: 0n });
    const again = await codeOf(runtime.startContainer({ containerId }));
    expect(again.code).toBe(2);
    expect(again.details).toContain('container is in CONTAINER_EXITED state');
    await runtime.removeContainer({ containerId });
    expect((await codeOf(runtime.containerStatus({ containerId }))).code).toBe(5);
  });

  it('answers NotFound with containerd messages for unknown containers and sandboxes', async () => {
    const runtime = make();
    expect(await codeOf(runtime.containerStatus({ containerId: 'nope' }))).toEqual({
      code: 5,
      details: 'an error occurred when try to find container "nope": not found',
    });
    expect((await codeOf(runtime.startContainer({ containerId: 'nope' }))).code).toBe(5);
    expect((await codeOf(runtime.stopContainer({ containerId: 'nope', timeout: 0n }))).code).toBe(5);
    await runtime.removeContainer({ containerId: 'nope' });
    expect((await codeOf(runtime.createContainer({ podSandboxId: 'nope', config: containerConfig(), sandboxConfig: sandboxConfig() }))).code).toBe(5);
  });

  it('refuses to create a container whose image is not present', async () => {
    const runtime = make();
    const { podSandboxId } = await runtime.runPodSandbox({ config: sandboxConfig() });
    const err = await codeOf(runtime.createContainer({ podSandboxId, config: containerConfig(), sandboxConfig: sandboxConfig() }));
    expect(err).toEqual({ code: 5, details: 'failed to resolve image "nginx": not found' });
  });

  it('refuses a container in a stopped sandbox and a duplicate name', async () => {
    const runtime = make();
    const { sandboxId, containerId } = await runningContainer(runtime);
    const dup = await codeOf(runtime.createContainer({ podSandboxId: sandboxId, config: containerConfig(), sandboxConfig: sandboxConfig() }));
    expect(dup.details).toBe(`failed to reserve container name "app_web_default_uid-web_0": name "app_web_default_uid-web_0" is reserved for "${containerId}"`);
    await runtime.stopPodSandbox({ podSandboxId: sandboxId });
    expect((await runtime.containerStatus({ containerId })).status.state).toBe('CONTAINER_EXITED');
    const stopped = await codeOf(runtime.createContainer({ podSandboxId: sandboxId, config: containerConfig('other'), sandboxConfig: sandboxConfig() }));
    expect(stopped).toEqual({ code: 2, details: `sandbox container "${sandboxId}" is not running` });
  });

  it('exits on its own per its behaviour on the injected clock, writing CRI log lines', async () => {
    const runtime = make(() => ({
      logs: [
        { stream: 'stdout', text: 'hello\nworld\n' },
        { stream: 'stderr', text: 'no newline', afterMs: 1500 },
        { stream: 'stdout', text: 'too late\n', afterMs: 5000 },
      ],
      exitCode: 3,
      exitAfterMs: 2000,
    }));
    const { containerId } = await runningContainer(runtime);
    const logFile = (await runtime.containerStatus({ containerId })).status.logPath;
    expect(readFileSync(logFile, 'utf8')).toBe('2026-12-01T10:00:00Z stdout F hello\n2026-12-01T10:00:00Z stdout F world\n');
    clock.advance(1999);
    expect((await runtime.containerStatus({ containerId })).status.state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    // Moving the clock wrote the log and exited the container without any call.
    expect(readFileSync(logFile, 'utf8')).toContain('2026-12-01T10:00:01.5Z stderr P no newline\n');
    const status = (await runtime.containerStatus({ containerId })).status;
    expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 3, reason: 'Error' });
    expect(status.finishedAt).toBe(BigInt(START + 2000) * 1_000_000n);
    clock.advance(10_000);
    expect(readFileSync(logFile, 'utf8')).not.toContain('too late');
    runtime.close();
  });

  it('exits at once with only an exit code, and crashes when told', async () => {
    const runtime = make((c) => (c.metadata.name === 'job' ? { exitCode: 0 } : undefined));
    const { containerId: job } = await runningContainer(runtime, 'job');
    expect((await runtime.containerStatus({ containerId: job })).status).toMatchObject({ state: 'CONTAINER_EXITED', reason: 'Completed' });
    const config = sandboxConfig('other');
    const { podSandboxId } = await runtime.runPodSandbox({ config });
    const { containerId } = await runtime.createContainer({ podSandboxId, config: containerConfig('srv'), sandboxConfig: config });
    await runtime.startContainer({ containerId });
    runtime.crashContainer(containerId, 137, 'OOMKilled');
    expect((await runtime.containerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'OOMKilled' });
    expect(() => runtime.crashContainer(containerId, 1)).toThrow(/not running/);
  });

  it('lists containers by id, state, sandbox and labels', async () => {
    const runtime = make();
    const { sandboxId, containerId } = await runningContainer(runtime);
    const { containerId: created } = await runtime.createContainer({
      podSandboxId: sandboxId,
      config: containerConfig('side'),
      sandboxConfig: sandboxConfig(),
    });
    const ids = async (filter: object): Promise<string[]> => (await runtime.listContainers({ filter })).containers.map((c) => c.id);
    expect((await ids({})).sort()).toEqual([containerId, created].sort());
    expect(await ids({ state: 'CONTAINER_CREATED' })).toEqual([created]);
    expect(await ids({ id: containerId.slice(0, 10) })).toEqual([containerId]);
    expect((await ids({ podSandboxId: sandboxId })).length).toBe(2);
    expect(await ids({ podSandboxId: 'deadbeef' })).toEqual([]);
    expect(await ids({ labelSelector: { c: 'side' } })).toEqual([created]);
    const listed = (await runtime.listContainers({})).containers.find((c) => c.id === containerId)!;
    expect(listed).toMatchObject({ podSandboxId: sandboxId, image: { image: 'nginx' }, state: 'CONTAINER_RUNNING' });
    expect(listed.imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('removes a running container (stopping it) and a sandbox with its containers', async () => {
    const runtime = make();
    const { sandboxId, containerId } = await runningContainer(runtime);
    await runtime.removePodSandbox({ podSandboxId: sandboxId });
    expect((await runtime.listContainers({})).containers).toEqual([]);
    expect((await codeOf(runtime.containerStatus({ containerId }))).code).toBe(5);
  });

  it('reopens the log of a running container only', async () => {
    const runtime = make();
    const { containerId } = await runningContainer(runtime);
    const logFile = (await runtime.containerStatus({ containerId })).status.logPath;
    rmSync(logFile);
    await runtime.reopenContainerLog({ containerId });
    expect(existsSync(logFile)).toBe(true);
    await runtime.stopContainer({ containerId, timeout: 0n });
    expect(await codeOf(runtime.reopenContainerLog({ containerId }))).toEqual({ code: 2, details: 'container is not running' });
  });
});

describe('memkube CRI runtime: images', () => {
  it('pulls known images instantly under their normalized names and removes them', async () => {
    const runtime = make(undefined, ['nginx:1.27', 'registry.k8s.io/pause:3.10']);
    const { imageRef } = await runtime.pullImage({ image: { image: 'docker.io/library/nginx:1.27' } });
    expect(imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const status = await runtime.imageStatus({ image: { image: 'nginx:1.27' } });
    expect(status.image).toMatchObject({ id: imageRef, repoTags: ['docker.io/library/nginx:1.27'] });
    expect(status.image!.repoDigests[0]).toMatch(/^docker\.io\/library\/nginx@sha256:/);
    expect((await runtime.imageStatus({ image: { image: imageRef } })).image?.id).toBe(imageRef);
    expect((await runtime.listImages({})).images.map((i) => i.id)).toEqual([imageRef]);
    expect((await runtime.listImages({ filter: { image: { image: 'busybox' } } })).images).toEqual([]);
    await runtime.removeImage({ image: { image: 'nginx:1.27' } });
    expect(await runtime.imageStatus({ image: { image: 'nginx:1.27' } })).toEqual({});
    await runtime.removeImage({ image: { image: 'nginx:1.27' } });
  });

  it('fails an unknown image as containerd does, and an injected pull failure', async () => {
    const runtime = make(undefined, ['nginx']);
    expect(await codeOf(runtime.pullImage({ image: { image: 'nginx:does-not-exist' } }))).toEqual({
      code: 5,
      details:
        'failed to pull and unpack image "docker.io/library/nginx:does-not-exist": failed to resolve reference ' +
        '"docker.io/library/nginx:does-not-exist": docker.io/library/nginx:does-not-exist: not found',
    });
    expect((await codeOf(runtime.pullImage({ image: { image: 'Not A Ref' } }))).code).toBe(2);
    runtime.faults.failPulls('pull QPS exceeded', { times: 1 });
    expect(await codeOf(runtime.pullImage({ image: { image: 'nginx' } }))).toEqual({ code: 2, details: 'pull QPS exceeded' });
    await runtime.pullImage({ image: { image: 'nginx' } });
  });
});

describe('memkube CRI runtime: checkpoints', () => {
  it('writes a root-only tar with config.dump, spec.dump and checkpoint/', async () => {
    const runtime = make();
    const { containerId } = await runningContainer(runtime);
    const location = join(dir, 'checkpoints', 'checkpoint-web_default-app-2026-12-01T10:00:00Z.tar');
    await runtime.checkpointContainer({ containerId, location, timeout: 0n });
    expect(statSync(location).mode & 0o777).toBe(0o600);
    const members = readTar(readFileSync(location));
    expect(members.map((m) => m.name)).toEqual(['config.dump', 'spec.dump', 'rootfs-diff.tar', 'checkpoint/', 'checkpoint/inventory.img']);
    expect(members.filter((m) => m.type === 'file').every((m) => m.mode === 0o600)).toBe(true);
    const config = JSON.parse(members[0]!.data.toString()) as Record<string, unknown>;
    expect(config).toMatchObject({ id: containerId, name: 'app_web_default_uid-web_0', rootfsImageName: 'docker.io/library/nginx:latest' });
    const spec = JSON.parse(members[1]!.data.toString()) as { root: { path: string }; annotations: Record<string, string> };
    expect(spec.root.path).toBe('rootfs');
    expect(spec.annotations['io.kubernetes.cri.sandbox-name']).toBe('web');
    // The container keeps running, as the kubelet's checkpoints leave it.
    expect((await runtime.containerStatus({ containerId })).status.state).toBe('CONTAINER_RUNNING');
  });

  it('refuses unknown and stopped containers with containerd messages', async () => {
    const runtime = make();
    expect((await codeOf(runtime.checkpointContainer({ containerId: 'x', location: join(dir, 'a.tar'), timeout: 0n }))).code).toBe(5);
    const { containerId } = await runningContainer(runtime);
    await runtime.stopContainer({ containerId, timeout: 0n });
    expect(await codeOf(runtime.checkpointContainer({ containerId, location: join(dir, 'a.tar'), timeout: 0n }))).toEqual({
      code: 2,
      details: `container "${containerId}" is in CONTAINER_EXITED state. only CONTAINER_RUNNING containers can be checkpointed`,
    });
  });

  it('fails the next checkpoint as injected, then succeeds', async () => {
    const runtime = make();
    const { containerId } = await runningContainer(runtime);
    runtime.faults.failCheckpoints('criu failed: type NOTIFY errno 0', { times: 1 });
    const location = join(dir, 'b.tar');
    expect(await codeOf(runtime.checkpointContainer({ containerId, location, timeout: 0n }))).toEqual({
      code: 2,
      details: 'criu failed: type NOTIFY errno 0',
    });
    expect(existsSync(location)).toBe(false);
    await runtime.checkpointContainer({ containerId, location, timeout: 0n });
    expect(existsSync(location)).toBe(true);
  });

  it('answers UNIMPLEMENTED like containerd 1.6', async () => {
    const runtime = make();
    runtime.faults.checkpointsUnimplemented();
    expect(await codeOf(runtime.checkpointContainer({ containerId: 'x', location: join(dir, 'c.tar'), timeout: 0n }))).toEqual({
      code: 12,
      details: 'method CheckpointContainer not implemented',
    });
    runtime.faults.clear();
    expect((await codeOf(runtime.checkpointContainer({ containerId: 'x', location: join(dir, 'c.tar'), timeout: 0n }))).code).toBe(5);
  });

  it('takes the injected time on the clock, and misses a shorter deadline', async () => {
    const runtime = make();
    const { containerId } = await runningContainer(runtime);
    runtime.faults.delayCheckpoints(5000);
    const location = join(dir, 'slow.tar');
    let settled = false;
    const slow = runtime.checkpointContainer({ containerId, location, timeout: 10n }).then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    clock.advance(4999);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    clock.advance(1);
    await slow;
    expect(existsSync(location)).toBe(true);

    const late = codeOf(runtime.checkpointContainer({ containerId, location: join(dir, 'late.tar'), timeout: 2n }));
    await new Promise((r) => setImmediate(r));
    clock.advance(2000);
    expect(await late).toEqual({ code: 4, details: 'context deadline exceeded' });
    expect(existsSync(join(dir, 'late.tar'))).toBe(false);
  });
});
