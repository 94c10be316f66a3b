/**
 * memkube's own container runtime, in process: the CRI's RuntimeService and ImageService over
 * sandboxes and containers that are only state. Containers go created → running → exited as
 * containerd's do, print what their scripted behaviour says into CRI-format log files, exit when
 * it says (on the injected clock), and can be checkpointed into a real tar archive. Errors carry
 * containerd's gRPC codes and messages (pkg/cri/server in containerd), so a client sees what it
 * would see from containerd.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { Clock } from '../../clock.js';
import {
  CriError,
  type CheckpointContainerRequest,
  type CheckpointContainerResponse,
  type Container,
  type ContainerConfig,
  type ContainerIdRequest,
  type ContainerState,
  type ContainerStatusRequest,
  type ContainerStatusResponse,
  type CreateContainerRequest,
  type CreateContainerResponse,
  type Empty,
  type Image,
  type ImageService,
  type ImageStatusRequest,
  type ImageStatusResponse,
  type ListContainersRequest,
  type ListContainersResponse,
  type ListImagesRequest,
  type ListImagesResponse,
  type ListPodSandboxRequest,
  type ListPodSandboxResponse,
  type PodSandbox,
  type PodSandboxConfig,
  type PodSandboxIdRequest,
  type PodSandboxStatusRequest,
  type PodSandboxStatusResponse,
  type PullImageRequest,
  type PullImageResponse,
  type RemoveImageRequest,
  type ReopenContainerLogRequest,
  type RunPodSandboxRequest,
  type RunPodSandboxResponse,
  type RuntimeCondition,
  type RuntimeService,
  type StatusRequest,
  type StatusResponse,
  type StopContainerRequest,
  type VersionRequest,
  type VersionResponse,
} from '../api.js';
import { GrpcStatus } from '../grpc-status.js';
import { checkpointArchive, CHECKPOINT_FILE_MODE } from './checkpoint-archive.js';
import { waitForClock } from './clock-wait.js';
import { criLogLines } from './cri-log.js';
import { CriFaults } from './faults.js';
import { imageFor, normalizeImageReference, parseImageReference, type StoredImage } from './images.js';
import type { ContainerBehaviour, ContainerRecord, SandboxRecord } from './records.js';
import { behaviourFromEnv } from './env-behaviour.js';

/**
 * Options of {@link createInProcessCriRuntime}.
 * @category CRI runtime
 */
export interface InProcessCriRuntimeOptions {
  /** Timestamps, scripted exits and checkpoint delays follow it; default: the system clock. */
  readonly clock?: Clock;
  /**
   * The images a pull finds, by any spelling (`nginx`, `docker.io/library/nginx:latest`), or a
   * predicate over the normalized reference. Default: every well-formed reference is found.
   */
  readonly images?: readonly string[] | ((normalizedReference: string) => boolean);
  /** Images present from the start, as if pulled before (the pause image, say). */
  readonly preloadedImages?: readonly string[];
  /** What each container does; called once per CreateContainer. Default: what its environment scripts ({@link behaviourFromEnv}), else it runs until stopped and prints nothing. */
  readonly containers?: (config: ContainerConfig, sandboxConfig: PodSandboxConfig) => ContainerBehaviour | undefined;
  /** `runtimeVersion` in Version answers (default `0.1.0`). */
  readonly runtimeVersion?: string;
  /** Base of relative sandbox log directories and checkpoint locations (default: the process's cwd). */
  readonly rootDir?: string;
}

/**
 * memkube's in-process CRI runtime: the two services plus inspection and failure injection.
 * @category CRI runtime
 */
export interface InProcessCriRuntime extends RuntimeService, ImageService {
  /** Failure injection: make checkpoints, pulls or RunPodSandbox fail, be slow or be unimplemented. */
  readonly faults: CriFaults;
  /** Makes a running container exit now with `exitCode` (reason `Error`, or `Completed` for 0). */
  crashContainer(containerId: string, exitCode: number, reason?: string): void;
  /** Sets a Status condition (`RuntimeReady`, `NetworkReady`), as a runtime whose CNI broke reports it. */
  setCondition(type: 'RuntimeReady' | 'NetworkReady', status: boolean, reason?: string, message?: string): void;
  /** Stops following the clock's manual moves (nothing else to release: there are no processes). */
  close(): void;
}

const systemClock: Clock = { now: () => Date.now() };

/** CRI's `CONTAINER_RUNNING` etc. as containerd's errors spell them. */
const stateName = (state: ContainerState): string => state;

const nanos = (ms: number | undefined): bigint => (ms === undefined ? 0n : BigInt(Math.round(ms)) * 1_000_000n);

function newId(): string {
  return randomBytes(32).toString('hex');
}

function matchesLabels(labels: Record<string, string> | undefined, selector: Record<string, string> | undefined): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/**
 * Creates memkube's in-process CRI runtime.
 * @category CRI runtime
 */
export function createInProcessCriRuntime(options: InProcessCriRuntimeOptions = {}): InProcessCriRuntime {
  return new MemkubeCriRuntime(options);
}

class MemkubeCriRuntime implements InProcessCriRuntime {
  readonly faults = new CriFaults();
  private readonly clock: Clock;
  private readonly sandboxes = new Map<string, SandboxRecord>();
  private readonly containers = new Map<string, ContainerRecord>();
  private readonly images = new Map<string, StoredImage>();
  private readonly reservedNames = new Map<string, string>();
  private readonly conditions = new Map<string, RuntimeCondition>([
    ['RuntimeReady', { type: 'RuntimeReady', status: true, reason: '', message: '' }],
    ['NetworkReady', { type: 'NetworkReady', status: true, reason: '', message: '' }],
  ]);
  private nextIp = 2;
  private readonly unlisten: (() => void) | undefined;

  constructor(private readonly options: InProcessCriRuntimeOptions) {
    this.clock = options.clock ?? systemClock;
    // With a clock moved by hand, scripted logs and exits happen as it moves, not only when asked.
    const onAdvance = (this.clock as { onAdvance?: (listener: () => void) => () => void }).onAdvance;
    this.unlisten = typeof onAdvance === 'function' ? onAdvance.call(this.clock, () => this.settle()) : undefined;
    for (const ref of options.preloadedImages ?? []) this.storeImage(ref);
  }

  close(): void {
    this.unlisten?.();
  }

  // ---- RuntimeService -------------------------------------------------------------------------

  async version(_request: VersionRequest): Promise<VersionResponse> {
    // containerd answers the kubelet API version it speaks ("0.1.0") whatever the request says.
    return { version: '0.1.0', runtimeName: 'memkube', runtimeVersion: this.options.runtimeVersion ?? '0.1.0', runtimeApiVersion: 'v1' };
  }

  async status(_request: StatusRequest): Promise<StatusResponse> {
    return { status: { conditions: [...this.conditions.values()].map((c) => ({ ...c })) } };
  }

  setCondition(type: 'RuntimeReady' | 'NetworkReady', status: boolean, reason = '', message = ''): void {
    this.conditions.set(type, { type, status, reason, message });
  }

  async runPodSandbox(request: RunPodSandboxRequest): Promise<RunPodSandboxResponse> {
    const config = request.config;
    const meta = config?.metadata;
    if (!meta || !meta.name || !meta.namespace || !meta.uid) {
      throw new CriError(GrpcStatus.Unknown, 'sandbox config must include metadata');
    }
    const injected = this.faults.takeRunPodSandboxFailure();
    if (injected !== undefined) throw new CriError(GrpcStatus.Unknown, injected);
    const id = newId();
    // containerd reserves `<name>_<namespace>_<uid>_<attempt>` (makeSandboxName).
    const nameKey = `${meta.name}_${meta.namespace}_${meta.uid}_${meta.attempt ?? 0}`;
    const holder = this.reservedNames.get(nameKey);
    if (holder !== undefined) {
      throw new CriError(GrpcStatus.Unknown, `failed to reserve sandbox name "${nameKey}": name "${nameKey}" is reserved for "${holder}"`);
    }
    this.reservedNames.set(nameKey, id);
    const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === 'NODE';
    // containerd's default CNI network is 10.88.0.0/16; a host-network sandbox has no IP of its own.
    const ip = hostNetwork ? '' : `10.88.${Math.floor(this.nextIp / 256) % 256}.${this.nextIp++ % 256}`;
    this.sandboxes.set(id, {
      id,
      config,
      runtimeHandler: request.runtimeHandler ?? '',
      createdAtMs: this.clock.now(),
      ip,
      nameKey,
      state: 'SANDBOX_READY',
    });
    return { podSandboxId: id };
  }

  async stopPodSandbox(request: PodSandboxIdRequest): Promise<Empty> {
    this.settle();
    const sandbox = this.findSandbox(request.podSandboxId);
    for (const c of this.containers.values()) {
      if (c.sandboxId === sandbox.id && c.state === 'CONTAINER_RUNNING') this.exit(c, this.clock.now(), c.behaviour.stopExitCode ?? 0);
    }
    sandbox.state = 'SANDBOX_NOTREADY';
    return {};
  }

  async removePodSandbox(request: PodSandboxIdRequest): Promise<Empty> {
    this.settle();
    // containerd: removing a sandbox that is gone already succeeds.
    const sandbox = this.lookupSandbox(request.podSandboxId);
    if (!sandbox) return {};
    for (const c of [...this.containers.values()]) {
      if (c.sandboxId !== sandbox.id) continue;
      if (c.state === 'CONTAINER_RUNNING') this.exit(c, this.clock.now(), c.behaviour.stopExitCode ?? 0);
      this.deleteContainer(c);
    }
    sandbox.state = 'SANDBOX_NOTREADY';
    this.sandboxes.delete(sandbox.id);
    this.reservedNames.delete(sandbox.nameKey);
    return {};
  }

  async podSandboxStatus(request: PodSandboxStatusRequest): Promise<PodSandboxStatusResponse> {
    const s = this.findSandbox(request.podSandboxId);
    return {
      status: {
        id: s.id,
        metadata: { ...s.config.metadata, attempt: s.config.metadata.attempt ?? 0 },
        state: s.state,
        createdAt: nanos(s.createdAtMs),
        network: { ip: s.ip },
        labels: { ...(s.config.labels ?? {}) },
        annotations: { ...(s.config.annotations ?? {}) },
      },
      ...(request.verbose ? { info: { info: JSON.stringify({ pid: 0, runtimeHandler: s.runtimeHandler, config: s.config }) } } : {}),
    };
  }

  async listPodSandbox(request: ListPodSandboxRequest): Promise<ListPodSandboxResponse> {
    const filter = request.filter;
    const idMatch = filter?.id ? this.resolveId(this.sandboxes, filter.id) : undefined;
    if (filter?.id && idMatch === undefined) return { items: [] };
    const items: PodSandbox[] = [];
    for (const s of this.sandboxes.values()) {
      if (idMatch !== undefined && s.id !== idMatch) continue;
      if (filter?.state && s.state !== filter.state) continue;
      if (!matchesLabels(s.config.labels, filter?.labelSelector)) continue;
      items.push({
        id: s.id,
        metadata: { ...s.config.metadata, attempt: s.config.metadata.attempt ?? 0 },
        state: s.state,
        createdAt: nanos(s.createdAtMs),
        labels: { ...(s.config.labels ?? {}) },
        annotations: { ...(s.config.annotations ?? {}) },
      });
    }
    return { items };
  }

  async createContainer(request: CreateContainerRequest): Promise<CreateContainerResponse> {
    this.settle();
    const config = request.config;
    if (!config?.metadata?.name) throw new CriError(GrpcStatus.Unknown, 'container config must include metadata');
    const sandbox = this.lookupSandbox(request.podSandboxId);
    if (!sandbox) {
      throw new CriError(GrpcStatus.NotFound, `failed to find sandbox id "${request.podSandboxId}": not found`);
    }
    if (sandbox.state !== 'SANDBOX_READY') {
      throw new CriError(GrpcStatus.Unknown, `sandbox container "${sandbox.id}" is not running`);
    }
    const sandboxMeta = sandbox.config.metadata;
    // containerd reserves `<container>_<sandbox>_<namespace>_<uid>_<attempt>` (makeContainerName).
    const nameKey = `${config.metadata.name}_${sandboxMeta.name}_${sandboxMeta.namespace}_${sandboxMeta.uid}_${config.metadata.attempt ?? 0}`;
    const holder = this.reservedNames.get(nameKey);
    if (holder !== undefined) {
      throw new CriError(GrpcStatus.Unknown, `failed to reserve container name "${nameKey}": name "${nameKey}" is reserved for "${holder}"`);
    }
    const image = this.localImage(config.image?.image ?? '');
    if (!image) {
      throw new CriError(GrpcStatus.NotFound, `failed to resolve image "${config.image?.image ?? ''}": not found`);
    }
    const id = newId();
    this.reservedNames.set(nameKey, id);
    const sandboxConfig = request.sandboxConfig?.metadata ? request.sandboxConfig : sandbox.config;
    const logDirectory = sandbox.config.logDirectory ?? sandboxConfig.logDirectory ?? '';
    const logFile = logDirectory && config.logPath ? this.absolute(join(logDirectory, config.logPath)) : '';
    // Without a script of the program's own, a container is scripted by its environment.
    const behaviour = (this.options.containers ?? behaviourFromEnv)(config, sandboxConfig) ?? {};
    this.containers.set(id, {
      id,
      sandboxId: sandbox.id,
      config,
      sandboxConfig,
      nameKey,
      imageName: image.repoTags[0] ?? config.image.image,
      imageId: image.id,
      imageDigestRef: image.repoDigests[0] ?? image.id,
      createdAtMs: this.clock.now(),
      behaviour,
      logFile,
      state: 'CONTAINER_CREATED',
      exitCode: 0,
      reason: '',
      message: '',
      pendingLogs: [],
    });
    return { containerId: id };
  }

  async startContainer(request: ContainerIdRequest): Promise<Empty> {
    this.settle();
    const c = this.findContainer(request.containerId);
    if (c.state !== 'CONTAINER_CREATED') {
      throw new CriError(GrpcStatus.Unknown, `failed to set starting state for container "${c.id}": container is in ${stateName(c.state)} state`);
    }
    const sandbox = this.lookupSandbox(c.sandboxId);
    if (!sandbox || sandbox.state !== 'SANDBOX_READY') {
      throw new CriError(GrpcStatus.Unknown, `sandbox container "${c.sandboxId}" is not running`);
    }
    const now = this.clock.now();
    if (c.logFile) {
      // containerd opens (creates) the log file when it starts the container's task.
      mkdirSync(dirname(c.logFile), { recursive: true });
      appendFileSync(c.logFile, '');
    }
    c.state = 'CONTAINER_RUNNING';
    c.startedAtMs = now;
    const b = c.behaviour;
    c.pendingLogs = [...(b.logs ?? [])].map((l, i) => ({ ...l, order: i })).sort((x, y) => (x.afterMs ?? 0) - (y.afterMs ?? 0) || x.order - y.order);
    if (b.exitCode !== undefined || b.exitAfterMs !== undefined) c.exitDueAtMs = now + Math.max(0, b.exitAfterMs ?? 0);
    this.settleContainer(c, now);
    return {};
  }

  async stopContainer(request: StopContainerRequest): Promise<Empty> {
    this.settle();
    const c = this.findContainer(request.containerId);
    // containerd: stopping a container that is not running does nothing.
    if (c.state === 'CONTAINER_RUNNING') this.exit(c, this.clock.now(), c.behaviour.stopExitCode ?? 0);
    return {};
  }

  async removeContainer(request: ContainerIdRequest): Promise<Empty> {
    this.settle();
    // containerd: removing a container that is gone already succeeds; a running one is stopped first.
    const id = this.resolveId(this.containers, request.containerId);
    const c = id === undefined ? undefined : this.containers.get(id);
    if (!c) return {};
    if (c.state === 'CONTAINER_RUNNING') this.exit(c, this.clock.now(), c.behaviour.stopExitCode ?? 0);
    this.deleteContainer(c);
    return {};
  }

  async listContainers(request: ListContainersRequest): Promise<ListContainersResponse> {
    this.settle();
    const filter = request.filter;
    const idMatch = filter?.id ? this.resolveId(this.containers, filter.id) : undefined;
    if (filter?.id && idMatch === undefined) return { containers: [] };
    const sandboxMatch = filter?.podSandboxId ? this.resolveId(this.sandboxes, filter.podSandboxId) : undefined;
    if (filter?.podSandboxId && sandboxMatch === undefined) return { containers: [] };
    const containers: Container[] = [];
    for (const c of this.containers.values()) {
      if (idMatch !== undefined && c.id !== idMatch) continue;
      if (sandboxMatch !== undefined && c.sandboxId !== sandboxMatch) continue;
      if (filter?.state && c.state !== filter.state) continue;
      if (!matchesLabels(c.config.labels, filter?.labelSelector)) continue;
      containers.push({
        id: c.id,
        podSandboxId: c.sandboxId,
        metadata: { name: c.config.metadata.name, attempt: c.config.metadata.attempt ?? 0 },
        image: { image: c.config.image.image, ...(c.config.image.annotations ? { annotations: { ...c.config.image.annotations } } : {}) },
        imageRef: c.imageId,
        state: c.state,
        createdAt: nanos(c.createdAtMs),
        labels: { ...(c.config.labels ?? {}) },
        annotations: { ...(c.config.annotations ?? {}) },
        imageId: c.imageId,
      });
    }
    return { containers };
  }

  async containerStatus(request: ContainerStatusRequest): Promise<ContainerStatusResponse> {
    this.settle();
    const c = this.findContainer(request.containerId);
    return {
      status: {
        id: c.id,
        metadata: { name: c.config.metadata.name, attempt: c.config.metadata.attempt ?? 0 },
        state: c.state,
        createdAt: nanos(c.createdAtMs),
        startedAt: nanos(c.startedAtMs),
        finishedAt: nanos(c.finishedAtMs),
        exitCode: c.exitCode,
        // containerd answers the image's tag and its repo digest, which the kubelet shows as imageID.
        image: { image: c.imageName },
        imageRef: c.imageDigestRef,
        reason: c.reason,
        message: c.message,
        labels: { ...(c.config.labels ?? {}) },
        annotations: { ...(c.config.annotations ?? {}) },
        logPath: c.logFile,
        // Since 1.36 the id PullImage answered, where imageRef may be a digest.
        imageId: c.imageId,
      },
      ...(request.verbose ? { info: { info: JSON.stringify({ sandboxID: c.sandboxId, pid: 0, config: c.config }) } } : {}),
    };
  }

  async reopenContainerLog(request: ReopenContainerLogRequest): Promise<Empty> {
    this.settle();
    const c = this.findContainer(request.containerId);
    if (c.state !== 'CONTAINER_RUNNING') throw new CriError(GrpcStatus.Unknown, 'container is not running');
    if (c.logFile) {
      // After the kubelet rotated the file away, reopening creates it again.
      mkdirSync(dirname(c.logFile), { recursive: true });
      appendFileSync(c.logFile, '');
    }
    return {};
  }

  async checkpointContainer(request: CheckpointContainerRequest): Promise<CheckpointContainerResponse> {
    if (this.faults.checkpointUnimplemented) {
      // containerd 1.6's CRI plugin (pkg/cri/server/container_checkpoint.go).
      throw new CriError(GrpcStatus.Unimplemented, 'method CheckpointContainer not implemented');
    }
    this.settle();
    const id = this.resolveId(this.containers, request.containerId);
    const c = id === undefined ? undefined : this.containers.get(id);
    if (!c) {
      throw new CriError(GrpcStatus.NotFound, `an error occurred when try to find container "${request.containerId}": not found`);
    }
    if (c.state !== 'CONTAINER_RUNNING') {
      throw new CriError(
        GrpcStatus.Unknown,
        `container "${request.containerId}" is in ${stateName(c.state)} state. only CONTAINER_RUNNING containers can be checkpointed`,
      );
    }
    const startedAt = this.clock.now();
    const delay = Math.max(this.faults.checkpointDelayMs, c.behaviour.checkpoint?.delayMs ?? 0);
    const timeoutMs = Number(request.timeout ?? 0n) * 1000;
    if (delay > 0) {
      if (timeoutMs > 0 && delay > timeoutMs) {
        // The caller's deadline passes first: what grpc reports for an expired context.
        await waitForClock(this.clock, startedAt + timeoutMs);
        throw new CriError(GrpcStatus.DeadlineExceeded, 'context deadline exceeded');
      }
      await waitForClock(this.clock, startedAt + delay);
    }
    const injected = this.faults.takeCheckpointFailure() ?? c.behaviour.checkpoint?.error;
    if (injected !== undefined) throw new CriError(GrpcStatus.Unknown, injected);
    if (!request.location) throw new CriError(GrpcStatus.Unknown, 'checkpoint location must be set');
    const location = this.absolute(request.location);
    const archive = checkpointArchive(
      {
        id: c.id,
        name: c.nameKey,
        config: c.config,
        sandboxConfig: c.sandboxConfig,
        sandboxId: c.sandboxId,
        imageName: c.imageName,
        imageRef: c.imageId,
        createdAtMs: c.createdAtMs,
      },
      this.clock.now(),
    );
    await mkdir(dirname(location), { recursive: true });
    await writeFile(location, archive, { mode: CHECKPOINT_FILE_MODE });
    // The mode of writeFile only applies to a new file (and is masked by the umask).
    await chmod(location, CHECKPOINT_FILE_MODE);
    return {};
  }

  crashContainer(containerId: string, exitCode: number, reason?: string): void {
    this.settle();
    const c = this.findContainer(containerId);
    if (c.state !== 'CONTAINER_RUNNING') {
      throw new CriError(GrpcStatus.FailedPrecondition, `container "${c.id}" is in ${stateName(c.state)} state, not running`);
    }
    this.exit(c, this.clock.now(), exitCode, reason);
  }

  // ---- ImageService ---------------------------------------------------------------------------

  async listImages(request: ListImagesRequest): Promise<ListImagesResponse> {
    const wanted = request.filter?.image?.image;
    if (wanted) {
      const image = this.localImage(wanted);
      return { images: image ? [toCriImage(image)] : [] };
    }
    return { images: [...this.images.values()].map(toCriImage) };
  }

  async imageStatus(request: ImageStatusRequest): Promise<ImageStatusResponse> {
    const image = this.localImage(request.image?.image ?? '');
    return image ? { image: toCriImage(image) } : {};
  }

  async pullImage(request: PullImageRequest): Promise<PullImageResponse> {
    const reference = request.image?.image ?? '';
    const parsed = parseImageReference(reference);
    if (!parsed) throw new CriError(GrpcStatus.Unknown, `failed to pull and unpack image "${reference}": invalid reference format`);
    const normalized = normalizeImageReference(reference);
    const injected = this.faults.takePullFailure();
    if (injected !== undefined) throw new CriError(GrpcStatus.Unknown, injected);
    if (!this.isKnown(normalized)) {
      // containerd's answer for a tag the registry does not have (errdefs.ErrNotFound → NotFound).
      throw new CriError(
        GrpcStatus.NotFound,
        `failed to pull and unpack image "${normalized}": failed to resolve reference "${normalized}": ${normalized}: not found`,
      );
    }
    return { imageRef: this.storeImage(reference).id };
  }

  async removeImage(request: RemoveImageRequest): Promise<Empty> {
    // containerd: removing an image that is not there succeeds.
    const image = this.localImage(request.image?.image ?? '');
    if (image) this.images.delete(image.id);
    return {};
  }

  // ---- internals ------------------------------------------------------------------------------

  private isKnown(normalized: string): boolean {
    const known = this.options.images;
    if (known === undefined) return true;
    if (typeof known === 'function') return known(normalized);
    return known.some((k) => normalizeImageReference(k) === normalized);
  }

  private storeImage(reference: string): StoredImage {
    const image = imageFor(reference);
    const existing = this.images.get(image.id);
    if (existing) return existing;
    this.images.set(image.id, image);
    return image;
  }

  /** An image held locally, by id, tag (any spelling) or digest reference. */
  private localImage(reference: string): StoredImage | undefined {
    if (!reference) return undefined;
    const direct = this.images.get(reference) ?? this.images.get(`sha256:${reference}`);
    if (direct) return direct;
    const normalized = normalizeImageReference(reference);
    for (const image of this.images.values()) {
      if (image.repoTags.includes(normalized) || image.repoDigests.includes(normalized)) return image;
    }
    return undefined;
  }

  private absolute(path: string): string {
    return isAbsolute(path) ? path : join(this.options.rootDir ?? process.cwd(), path);
  }

  /** The full id a (unique) prefix names, as containerd's truncindex resolves ids. */
  private resolveId(map: Map<string, unknown>, idOrPrefix: string): string | undefined {
    if (map.has(idOrPrefix)) return idOrPrefix;
    if (!idOrPrefix) return undefined;
    let found: string | undefined;
    for (const id of map.keys()) {
      if (!id.startsWith(idOrPrefix)) continue;
      if (found !== undefined) return undefined;
      found = id;
    }
    return found;
  }

  private lookupSandbox(id: string): SandboxRecord | undefined {
    const full = this.resolveId(this.sandboxes, id);
    return full === undefined ? undefined : this.sandboxes.get(full);
  }

  private findSandbox(id: string): SandboxRecord {
    const s = this.lookupSandbox(id);
    if (!s) throw new CriError(GrpcStatus.NotFound, `an error occurred when try to find sandbox "${id}": not found`);
    return s;
  }

  private findContainer(id: string): ContainerRecord {
    const full = this.resolveId(this.containers, id);
    const c = full === undefined ? undefined : this.containers.get(full);
    if (!c) throw new CriError(GrpcStatus.NotFound, `an error occurred when try to find container "${id}": not found`);
    return c;
  }

  private deleteContainer(c: ContainerRecord): void {
    this.containers.delete(c.id);
    this.reservedNames.delete(c.nameKey);
  }

  /** Brings every running container up to the clock: writes due logs, exits due exits. */
  private settle(): void {
    const now = this.clock.now();
    for (const c of this.containers.values()) if (c.state === 'CONTAINER_RUNNING') this.settleContainer(c, now);
  }

  private settleContainer(c: ContainerRecord, now: number): void {
    const started = c.startedAtMs ?? now;
    const until = c.exitDueAtMs !== undefined ? Math.min(now, c.exitDueAtMs) : now;
    while (c.pendingLogs.length > 0 && started + (c.pendingLogs[0]!.afterMs ?? 0) <= until) {
      const log = c.pendingLogs.shift()!;
      this.writeLog(c, started + (log.afterMs ?? 0), log.stream, log.text);
    }
    if (c.exitDueAtMs !== undefined && c.exitDueAtMs <= now) this.exit(c, c.exitDueAtMs, c.behaviour.exitCode ?? 0);
  }

  private writeLog(c: ContainerRecord, atMs: number, stream: 'stdout' | 'stderr', text: string): void {
    if (!c.logFile || text === '') return;
    mkdirSync(dirname(c.logFile), { recursive: true });
    appendFileSync(c.logFile, criLogLines(nanos(atMs), stream, text));
  }

  private exit(c: ContainerRecord, atMs: number, exitCode: number, reason?: string): void {
    c.pendingLogs = [];
    c.state = 'CONTAINER_EXITED';
    c.finishedAtMs = atMs;
    c.exitCode = exitCode;
    // containerd's reasons for an exit without OOM: Completed for 0, Error otherwise.
    c.reason = reason ?? (exitCode === 0 ? 'Completed' : 'Error');
    c.exitDueAtMs = undefined;
  }
}

function toCriImage(image: StoredImage): Image {
  return { id: image.id, repoTags: [...image.repoTags], repoDigests: [...image.repoDigests], size: image.size, pinned: false };
}
