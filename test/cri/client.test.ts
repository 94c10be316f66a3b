import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CombinedClock } from '../../src/clock.js';
import { CriError, type PodSandboxConfig } from '../../src/cri/api.js';
import { createCriClient, type CriClient } from '../../src/cri/client.js';
import { createCriRuntime, readTar, type CriRuntimeServer } from '../../src/cri/runtime/index.js';
import { ProtoWriter } from '../../src/util/proto-wire.js';

const START = Date.UTC(2026, 11, 1, 12, 0, 0);
let dir: string;
let server: CriRuntimeServer;
let client: CriClient;
const clock = new CombinedClock({ frozenAt: START });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'memkube-cri-client-'));
  server = await createCriRuntime({
    socket: join(dir, 'run', 'memkube.sock'),
    clock,
    images: ['nginx', 'busybox'],
    containers: (c) => (c.metadata.name === 'job' ? { logs: [{ stream: 'stdout', text: 'done\n' }], exitCode: 4 } : undefined),
  });
  client = createCriClient(server.endpoint, { timeoutMs: 5000 });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<CriError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CriError);
  return error as CriError;
}

const sandbox = (name: string): PodSandboxConfig => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, attempt: 0 },
  logDirectory: join(dir, 'pods', name),
  labels: { app: name },
  annotations: { note: 'x' },
  linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER' } } },
});

describe('CRI client against memkube cri over a unix socket', () => {
  it('calls Version and Status', async () => {
    expect(await client.version({ version: 'v1' })).toEqual({ version: '0.1.0', runtimeName: 'memkube', runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' });
    const status = await client.status({});
    expect(status.status.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['RuntimeReady=true', 'NetworkReady=true']);
  });

  it('runs the whole pod lifecycle', async () => {
    const { imageRef } = await client.pullImage({ image: { image: 'nginx' } });
    expect((await client.imageStatus({ image: { image: 'nginx' } })).image?.id).toBe(imageRef);
    expect((await client.listImages({})).images.map((i) => i.repoTags[0])).toContain('docker.io/library/nginx:latest');
    const config = sandbox('web');
    const { podSandboxId } = await client.runPodSandbox({ config });
    const sandboxStatus = await client.podSandboxStatus({ podSandboxId });
    expect(sandboxStatus.status).toMatchObject({ id: podSandboxId, state: 'SANDBOX_READY', labels: { app: 'web' }, annotations: { note: 'x' } });
    expect(sandboxStatus.status.createdAt).toBe(BigInt(START) * 1_000_000n);
    expect((await client.listPodSandbox({ filter: { state: 'SANDBOX_READY' } })).items.map((s) => s.id)).toContain(podSandboxId);

    const { containerId } = await client.createContainer({
      podSandboxId,
      config: { metadata: { name: 'app', attempt: 0 }, image: { image: 'nginx' }, logPath: 'app/0.log', envs: [{ key: 'A', value: '1' }] },
      sandboxConfig: config,
    });
    // CONTAINER_CREATED is 0 on the wire: the filter's wrapper carries it.
    expect((await client.listContainers({ filter: { state: 'CONTAINER_CREATED' } })).containers.map((c) => c.id)).toEqual([containerId]);
    await client.startContainer({ containerId });
    const running = await client.containerStatus({ containerId, verbose: true });
    expect(running.status).toMatchObject({ state: 'CONTAINER_RUNNING', imageId: imageRef, logPath: join(dir, 'pods/web/app/0.log') });
    expect(running.info?.info).toContain('"sandboxID"');
    await client.reopenContainerLog({ containerId });

    const location = join(dir, 'checkpoints', 'app.tar');
    await client.checkpointContainer({ containerId, location, timeout: 0n });
    expect(statSync(location).mode & 0o777).toBe(0o600);
    expect(readTar(readFileSync(location)).map((m) => m.name)).toContain('spec.dump');

    await client.stopContainer({ containerId, timeout: 10n });
    expect((await client.containerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    await client.removeContainer({ containerId });
    await client.stopPodSandbox({ podSandboxId });
    await client.removePodSandbox({ podSandboxId });
    expect((await client.listPodSandbox({})).items.map((s) => s.id)).not.toContain(podSandboxId);
    await client.removeImage({ image: { image: 'nginx' } });
    expect(await client.imageStatus({ image: { image: 'nginx' } })).toEqual({});
  });

  it('carries scripted exits and logs', async () => {
    await client.pullImage({ image: { image: 'busybox' } });
    const config = sandbox('batch');
    const { podSandboxId } = await client.runPodSandbox({ config });
    const { containerId } = await client.createContainer({
      podSandboxId,
      config: { metadata: { name: 'job', attempt: 0 }, image: { image: 'busybox' }, logPath: 'job/0.log' },
      sandboxConfig: config,
    });
    await client.startContainer({ containerId });
    const status = (await client.containerStatus({ containerId })).status;
    expect(status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 4, reason: 'Error' });
    expect(readFileSync(status.logPath, 'utf8')).toBe('2026-12-01T12:00:00Z stdout F done\n');
  });

  it('maps errors to CriError with the gRPC code and details', async () => {
    const notFound = await failure(client.containerStatus({ containerId: 'missing' }));
    expect(notFound.code).toBe(5);
    expect(notFound.message).toBe('rpc error: code = NotFound desc = an error occurred when try to find container "missing": not found');
    const pull = await failure(client.pullImage({ image: { image: 'nope:1' } }));
    expect(pull.code).toBe(5);
    expect(pull.details).toMatch(/^failed to pull and unpack image "docker.io\/library\/nope:1"/);
    server.runtime.faults.checkpointsUnimplemented();
    try {
      const unimplemented = await failure(client.checkpointContainer({ containerId: 'x', location: join(dir, 'x.tar'), timeout: 0n }));
      expect(unimplemented.message).toBe('rpc error: code = Unimplemented desc = method CheckpointContainer not implemented');
    } finally {
      server.runtime.faults.clear();
    }
  });

  it('answers UNIMPLEMENTED for methods memkube does not serve', async () => {
    const raw = new grpc.Client(server.endpoint, grpc.credentials.createInsecure());
    try {
      const error = await new Promise<grpc.ServiceError>((resolve) => {
        raw.makeUnaryRequest(
          '/runtime.v1.RuntimeService/ExecSync',
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.alloc(0),
          (e) => resolve(e!),
        );
      });
      expect(error.code).toBe(grpc.status.UNIMPLEMENTED);
    } finally {
      raw.close();
    }
  });

  it('answers a request it cannot decode with an error, not a crash', async () => {
    const raw = new grpc.Client(server.endpoint, grpc.credentials.createInsecure());
    try {
      const truncated = new ProtoWriter().tag(1, 2).uint(100).finish();
      const error = await new Promise<grpc.ServiceError>((resolve) => {
        raw.makeUnaryRequest(
          '/runtime.v1.RuntimeService/ContainerStatus',
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.from(truncated),
          (e) => resolve(e!),
        );
      });
      expect(error.code).toBe(grpc.status.INTERNAL);
      expect((await client.version({})).runtimeName).toBe('memkube');
    } finally {
      raw.close();
    }
  });

  it('reports a deadline as the kubelet does, and a runtime that is not there as UNAVAILABLE', async () => {
    const fast = createCriClient(server.endpoint, { timeoutMs: 1 });
    server.runtime.faults.delayCheckpoints(60_000);
    try {
      await client.pullImage({ image: { image: 'nginx' } });
      const config = sandbox('slow');
      const { podSandboxId } = await client.runPodSandbox({ config });
      const { containerId } = await client.createContainer({
        podSandboxId,
        config: { metadata: { name: 'app', attempt: 0 }, image: { image: 'nginx' } },
        sandboxConfig: config,
      });
      await client.startContainer({ containerId });
      const late = await failure(fast.checkpointContainer({ containerId, location: join(dir, 'slow.tar'), timeout: 0n }));
      expect(late.message).toBe('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    } finally {
      fast.close();
      server.runtime.faults.clear();
      clock.advance(60_000); // lets the abandoned checkpoint finish
    }
    const nowhere = createCriClient(`unix://${join(dir, 'absent.sock')}`, { timeoutMs: 2000 });
    try {
      expect((await failure(nowhere.version({}))).code).toBe(14);
    } finally {
      nowhere.close();
    }
  });

  it('replaces a stale socket file and refuses relative paths', async () => {
    const stale = join(dir, 'stale.sock');
    writeFileSync(stale, 'left over');
    const second = await createCriRuntime({ socket: stale });
    try {
      const c = createCriClient(stale);
      expect((await c.version({})).runtimeApiVersion).toBe('v1');
      c.close();
    } finally {
      await second.close();
    }
    await expect(createCriRuntime({ socket: 'relative.sock' })).rejects.toThrow(/must be an absolute path/);
  });
});
