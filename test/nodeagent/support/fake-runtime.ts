/**
 * A small in-memory CRI runtime for the node agent's tests: sandboxes and containers that live
 * in maps, containers that run until a test makes them exit, images that pull instantly (or
 * fail to), and a record of every stop with its timeout. memkube's own runtime (`src/cri/runtime/`)
 * is the real thing; this one lets a test steer each container.
 */
import { createHash } from 'node:crypto';
import {
  CRI_LABELS,
  CriError,
  type ContainerConfig,
  type ContainerState,
  type Image,
  type ImageService,
  type PodSandboxConfig,
  type PodSandboxState,
  type RuntimeService,
} from '../../../src/cri/api.js';
import type { Clock } from '../../../src/clock.js';

interface FakeSandbox {
  id: string;
  config: PodSandboxConfig;
  state: PodSandboxState;
  createdAt: bigint;
  ip: string;
}

interface FakeContainer {
  id: string;
  sandboxId: string;
  config: ContainerConfig;
  imageRef: string;
  state: ContainerState;
  createdAt: bigint;
  startedAt: bigint;
  finishedAt: bigint;
  exitCode: number;
  reason: string;
}

const matches = (labels: Record<string, string> | undefined, selector: Record<string, string> | undefined) =>
  Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);

/** The fake runtime. */
export class FakeRuntime implements RuntimeService, ImageService {
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly containers = new Map<string, FakeContainer>();
  readonly images = new Map<string, Image>();
  readonly stops: { containerId: string; timeout: bigint }[] = [];
  readonly pulls: string[] = [];
  /** Images whose pull fails. */
  readonly failingPulls = new Set<string>();
  runtimeReady = true;
  private next = 1;

  constructor(private readonly clock: Clock) {}

  private ns(): bigint {
    return BigInt(this.clock.now()) * 1_000_000n;
  }

  private id(): string {
    return createHash('sha256').update(String(this.next++)).digest('hex');
  }

  /** The containers of a pod's container name, oldest first. */
  containersOf(podName: string, containerName: string): FakeContainer[] {
    return [...this.containers.values()].filter((c) => c.config.labels?.[CRI_LABELS.podName] === podName && c.config.metadata.name === containerName);
  }

  /** Makes the newest running container of that name exit. */
  exit(podName: string, containerName: string, exitCode: number): FakeContainer {
    const c = this.containersOf(podName, containerName).filter((x) => x.state === 'CONTAINER_RUNNING').at(-1);
    if (!c) throw new Error(`no running container ${containerName} of pod ${podName}`);
    c.state = 'CONTAINER_EXITED';
    c.exitCode = exitCode;
    c.finishedAt = this.ns();
    c.reason = exitCode === 0 ? 'Completed' : 'Error';
    return c;
  }

  async version() {
    return { version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.2.3', runtimeApiVersion: 'v1' };
  }
  async status() {
    return {
      status: {
        conditions: [
          { type: 'RuntimeReady', status: this.runtimeReady, reason: this.runtimeReady ? '' : 'Stopped', message: this.runtimeReady ? '' : 'the runtime is stopped' },
          { type: 'NetworkReady', status: true, reason: '', message: '' },
        ],
      },
    };
  }
  async runPodSandbox({ config }: { config: PodSandboxConfig }) {
    const id = this.id();
    const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === 'NODE';
    this.sandboxes.set(id, { id, config, state: 'SANDBOX_READY', createdAt: this.ns(), ip: hostNetwork ? '' : `10.88.0.${this.next}` });
    return { podSandboxId: id };
  }
  private sandbox(id: string): FakeSandbox {
    const s = this.sandboxes.get(id);
    if (!s) throw new CriError(5, `an error occurred when try to find sandbox "${id}": not found`);
    return s;
  }
  private container(id: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new CriError(5, `an error occurred when try to find container "${id}": not found`);
    return c;
  }
  async stopPodSandbox({ podSandboxId }: { podSandboxId: string }) {
    const s = this.sandbox(podSandboxId);
    for (const c of this.containers.values()) if (c.sandboxId === s.id && c.state !== 'CONTAINER_EXITED') this.kill(c, 137);
    s.state = 'SANDBOX_NOTREADY';
    return {};
  }
  async removePodSandbox({ podSandboxId }: { podSandboxId: string }) {
    for (const c of [...this.containers.values()]) if (c.sandboxId === podSandboxId) this.containers.delete(c.id);
    this.sandboxes.delete(podSandboxId);
    return {};
  }
  async podSandboxStatus({ podSandboxId }: { podSandboxId: string }) {
    const s = this.sandbox(podSandboxId);
    return {
      status: { id: s.id, metadata: s.config.metadata, state: s.state, createdAt: s.createdAt, network: { ip: s.ip }, labels: s.config.labels, annotations: s.config.annotations },
    };
  }
  async listPodSandbox(req: { filter?: { labelSelector?: Record<string, string> } }) {
    return {
      items: [...this.sandboxes.values()]
        .filter((s) => matches(s.config.labels, req.filter?.labelSelector))
        .map((s) => ({ id: s.id, metadata: s.config.metadata, state: s.state, createdAt: s.createdAt, labels: s.config.labels, annotations: s.config.annotations })),
    };
  }
  async createContainer({ podSandboxId, config }: { podSandboxId: string; config: ContainerConfig }) {
    if (this.sandbox(podSandboxId).state !== 'SANDBOX_READY') throw new CriError(9, 'sandbox is not ready');
    const id = this.id();
    const image = this.images.get(config.image.image) ?? [...this.images.values()].find((i) => i.id === config.image.image);
    if (!image) throw new CriError(5, `image "${config.image.image}" not found`);
    this.containers.set(id, {
      id,
      sandboxId: podSandboxId,
      config,
      imageRef: image.id,
      state: 'CONTAINER_CREATED',
      createdAt: this.ns() + BigInt(this.next),
      startedAt: 0n,
      finishedAt: 0n,
      exitCode: 0,
      reason: '',
    });
    return { containerId: id };
  }
  async startContainer({ containerId }: { containerId: string }) {
    const c = this.container(containerId);
    c.state = 'CONTAINER_RUNNING';
    c.startedAt = this.ns();
    return {};
  }
  private kill(c: FakeContainer, code: number) {
    c.state = 'CONTAINER_EXITED';
    c.exitCode = code;
    c.reason = 'Error';
    c.finishedAt = this.ns();
  }
  async stopContainer({ containerId, timeout }: { containerId: string; timeout: bigint }) {
    const c = this.container(containerId);
    this.stops.push({ containerId, timeout });
    if (c.state !== 'CONTAINER_EXITED') this.kill(c, 143);
    return {};
  }
  async removeContainer({ containerId }: { containerId: string }) {
    this.containers.delete(containerId);
    return {};
  }
  async listContainers(req: { filter?: { labelSelector?: Record<string, string> } }) {
    return {
      containers: [...this.containers.values()]
        .filter((c) => matches(c.config.labels, req.filter?.labelSelector))
        .map((c) => ({
          id: c.id,
          podSandboxId: c.sandboxId,
          metadata: c.config.metadata,
          image: c.config.image,
          imageRef: c.imageRef,
          state: c.state,
          createdAt: c.createdAt,
          labels: c.config.labels,
          annotations: c.config.annotations,
        })),
    };
  }
  async containerStatus({ containerId }: { containerId: string }) {
    const c = this.container(containerId);
    return {
      status: {
        id: c.id,
        metadata: c.config.metadata,
        state: c.state,
        createdAt: c.createdAt,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt,
        exitCode: c.exitCode,
        image: c.config.image,
        imageRef: c.imageRef,
        reason: c.reason,
        message: '',
        labels: c.config.labels,
        annotations: c.config.annotations,
        logPath: c.config.logPath ?? '',
      },
    };
  }
  async reopenContainerLog() {
    return {};
  }
  async checkpointContainer(): Promise<Record<string, never>> {
    throw new CriError(12, 'not implemented');
  }
  async listImages() {
    return { images: [...this.images.values()] };
  }
  async imageStatus({ image }: { image: { image: string } }) {
    const found = this.images.get(image.image);
    return found ? { image: found } : {};
  }
  async pullImage({ image }: { image: { image: string } }) {
    this.pulls.push(image.image);
    if (this.failingPulls.has(image.image)) throw new CriError(2, `failed to resolve reference "${image.image}": not found`);
    const id = `sha256:${createHash('sha256').update(image.image).digest('hex')}`;
    this.images.set(image.image, { id, repoTags: [image.image], repoDigests: [], size: 1000n });
    return { imageRef: id };
  }
  async removeImage({ image }: { image: { image: string } }) {
    this.images.delete(image.image);
    return {};
  }
}
