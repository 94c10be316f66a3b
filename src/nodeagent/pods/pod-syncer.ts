/**
 * Bringing the runtime in line with one pod, as kuberuntime's `SyncPod` does after
 * `computePodActions`: a ready sandbox (a new one, with the attempt after the last, when it is
 * gone), init containers one at a time, then every container that should run; exited containers
 * restarted per restartPolicy with back-off (CrashLoopBackOff); and killing a pod (containers
 * stopped with the grace period, then the sandbox) and removing what it left.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';
import type { ContainerStatus, PodSandboxConfig, RuntimeService } from '../../cri/api.js';
import type { Clock } from '../../clock.js';
import type { AgentLog } from '../agent-log.js';
import { Backoff, durationText } from './backoff.js';
import { ContainerConfigError, containerConfigOf } from './container-config.js';
import { envSourceNames, type EnvSourceReader } from './env-sources.js';
import { ImageNotReadyError, type ImageEnsurer } from './image-ensurer.js';
import type { WaitingReason } from './pod-status.js';
import { containersNamed, nanosToMs, restartCountOf, type PodRuntimeState } from './runtime-state.js';
import { sandboxConfigOf } from './sandbox-config.js';
import { containersOf, formatPod, initContainersOf, restartPolicyOf } from './pod-util.js';
import type { ContainerTypeLabel, KubeletMetrics } from '../metrics/kubelet-metrics.js';

/** What starting a container needs besides the pod. */
export interface SyncContext {
  readonly hostIP: string;
}

/** The runtime side of pod syncing. */
export class PodSyncer {
  private readonly backoff: Backoff;
  /** Waiting reasons by pod uid, then container name. */
  private readonly waiting = new Map<string, Map<string, WaitingReason>>();

  constructor(
    private readonly runtime: RuntimeService,
    private readonly images: ImageEnsurer,
    private readonly clock: Clock,
    private readonly podLogsDir: string,
    private readonly log: AgentLog,
    /** Reads the ConfigMaps and Secrets a container's environment names; without it such references fail. */
    private readonly envSources?: EnvSourceReader,
    /** Counts sandboxes and containers started (and failing to); nothing is counted without it. */
    private readonly metrics?: KubeletMetrics,
  ) {
    this.backoff = new Backoff(clock);
  }

  /** The reasons the pod's containers wait, as the last sync left them. */
  waitingOf(uid: string): ReadonlyMap<string, WaitingReason> {
    return this.waiting.get(uid) ?? new Map();
  }

  /** Forgets a pod that is gone. */
  forget(uid: string): void {
    this.waiting.delete(uid);
    this.backoff.forgetPrefix(`${uid}/`);
  }

  private waitingMap(uid: string): Map<string, WaitingReason> {
    let m = this.waiting.get(uid);
    if (!m) this.waiting.set(uid, (m = new Map()));
    return m;
  }

  /** One sync of a pod that should run. */
  async syncPod(pod: Pod, state: PodRuntimeState, ctx: SyncContext): Promise<void> {
    const uid = pod.metadata?.uid ?? '';
    const waiting = this.waitingMap(uid);
    const policy = restartPolicyOf(pod);
    let sandbox = state.sandboxes[0];
    let sandboxConfig: PodSandboxConfig;
    if (!sandbox || sandbox.state !== 'SANDBOX_READY') {
      // A pod that never restarts does not get a new sandbox once its containers have run.
      if (sandbox && policy === 'Never' && state.containers.length > 0) return;
      await this.killContainers(state, 0);
      for (const s of state.sandboxes) if (s.state === 'SANDBOX_READY') await this.runtime.stopPodSandbox({ podSandboxId: s.id });
      const attempt = sandbox ? sandbox.metadata.attempt + 1 : 0;
      sandboxConfig = sandboxConfigOf(pod, attempt, this.podLogsDir);
      try {
        const { podSandboxId } = await this.runtime.runPodSandbox({ config: sandboxConfig });
        sandbox = (await this.runtime.podSandboxStatus({ podSandboxId })).status;
        this.metrics?.podSandboxStarted(false);
      } catch (e) {
        this.metrics?.podSandboxStarted(true);
        this.log.errorS(e, 'Failed to create sandbox for pod', 'pod', formatPod(pod));
        for (const c of [...initContainersOf(pod), ...containersOf(pod)]) waiting.set(c.name, { reason: 'ContainerCreating' });
        return;
      }
    } else {
      sandboxConfig = sandboxConfigOf(pod, sandbox.metadata.attempt, this.podLogsDir);
    }
    const podIP = sandbox.network?.ip ?? '';
    const start = (c: Container, restartCount: number, type: ContainerTypeLabel) => {
      // kubelet counts a start once the back-off allows it, before the image is pulled (SyncPod's `start`).
      this.metrics?.containerStartAttempted(type);
      return this.startContainer(
        pod,
        c,
        restartCount,
        sandbox!.id,
        sandboxConfig,
        { hostIP: ctx.hostIP, podIP: pod.spec?.hostNetwork ? ctx.hostIP : podIP },
        waiting,
        type,
      );
    };

    // Init containers run one at a time, each to success, before any other container.
    for (const c of initContainersOf(pod)) {
      const instances = containersNamed(state, c.name);
      const latest = instances.find((x) => x.podSandboxId === sandbox!.id);
      if (!latest) return void (await start(c, nextRestartCount(instances), 'init_container'));
      if (latest.state === 'CONTAINER_RUNNING') return;
      if (latest.state === 'CONTAINER_CREATED') return void (await this.startCreated(pod, c, latest, waiting, 'init_container'));
      if (latest.exitCode === 0) {
        waiting.delete(c.name);
        continue;
      }
      if (policy === 'Never') return;
      if (this.inBackoff(pod, c, latest, waiting)) return;
      return void (await start(c, restartCountOf(latest) + 1, 'init_container'));
    }

    for (const c of containersOf(pod)) {
      const instances = containersNamed(state, c.name);
      const latest = instances[0];
      if (!latest || latest.podSandboxId !== sandbox.id) {
        await start(c, nextRestartCount(instances), 'container');
        continue;
      }
      if (latest.state === 'CONTAINER_RUNNING') {
        waiting.delete(c.name);
        continue;
      }
      if (latest.state === 'CONTAINER_CREATED' || latest.state === 'CONTAINER_UNKNOWN') {
        await this.startCreated(pod, c, latest, waiting, 'container');
        continue;
      }
      const restart = policy === 'Always' || (policy === 'OnFailure' && latest.exitCode !== 0);
      if (!restart) {
        waiting.delete(c.name);
        continue;
      }
      if (this.inBackoff(pod, c, latest, waiting)) continue;
      await start(c, restartCountOf(latest) + 1, 'container');
    }
  }

  /** `doBackOff`: while the back-off since the container finished lasts, it waits in CrashLoopBackOff; else the back-off grows and it restarts. */
  private inBackoff(pod: Pod, c: Container, exited: ContainerStatus, waiting: Map<string, WaitingReason>): boolean {
    const key = `${pod.metadata?.uid ?? ''}/${c.name}`;
    const finished = nanosToMs(exited.finishedAt);
    if (this.backoff.inBackoffSince(key, finished)) {
      waiting.set(c.name, {
        reason: 'CrashLoopBackOff',
        message: `back-off ${durationText(this.backoff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`,
      });
      return true;
    }
    this.backoff.next(key, finished);
    return false;
  }

  private async startCreated(pod: Pod, c: Container, created: ContainerStatus, waiting: Map<string, WaitingReason>, type: ContainerTypeLabel): Promise<void> {
    this.metrics?.containerStartAttempted(type);
    try {
      await this.runtime.startContainer({ containerId: created.id });
      waiting.delete(c.name);
    } catch (e) {
      this.metrics?.containerStartFailed(type, 'RunContainerError');
      waiting.set(c.name, { reason: 'RunContainerError', message: e instanceof Error ? e.message : String(e) });
      this.log.errorS(e, 'Failed to start container', 'pod', formatPod(pod), 'container', c.name);
    }
  }

  private async startContainer(
    pod: Pod,
    c: Container,
    restartCount: number,
    sandboxId: string,
    sandboxConfig: PodSandboxConfig,
    values: { hostIP: string; podIP: string },
    waiting: Map<string, WaitingReason>,
    type: ContainerTypeLabel,
  ): Promise<void> {
    // Each failure is counted by kubelet's error name, the reason the container then waits with.
    const fail = (reason: string, message: string) => {
      this.metrics?.containerStartFailed(type, reason);
      waiting.set(c.name, { reason, message });
    };
    let imageRef: string;
    try {
      imageRef = await this.images.ensureImage(pod, c, sandboxConfig);
    } catch (e) {
      if (e instanceof ImageNotReadyError) return fail(e.reason, e.message);
      throw e;
    }
    let config;
    try {
      const names = envSourceNames(c);
      const sources = this.envSources && names.configMaps.size + names.secrets.size > 0 ? await this.envSources(pod, c) : undefined;
      config = containerConfigOf(pod, c, restartCount, imageRef, values, sources);
    } catch (e) {
      // A spec that cannot be configured, or a ConfigMap or Secret that could not be read.
      return fail(
        'CreateContainerConfigError',
        e instanceof ContainerConfigError ? e.message : `failed to read the environment's sources: ${String(e instanceof Error ? e.message : e)}`,
      );
    }
    let containerId: string;
    try {
      containerId = (await this.runtime.createContainer({ podSandboxId: sandboxId, config, sandboxConfig })).containerId;
    } catch (e) {
      fail('CreateContainerError', e instanceof Error ? e.message : String(e));
      this.log.errorS(e, 'Failed to create container', 'pod', formatPod(pod), 'container', c.name);
      return;
    }
    try {
      await this.runtime.startContainer({ containerId });
      waiting.delete(c.name);
    } catch (e) {
      fail('RunContainerError', e instanceof Error ? e.message : String(e));
      this.log.errorS(e, 'Failed to start container', 'pod', formatPod(pod), 'container', c.name);
    }
  }

  /** Stops every running (or created) container, `gracePeriodSeconds` each, all at once. */
  async killContainers(state: PodRuntimeState, gracePeriodSeconds: number): Promise<void> {
    await Promise.all(
      state.containers
        .filter((c) => c.state !== 'CONTAINER_EXITED')
        .map((c) =>
          this.runtime
            .stopContainer({ containerId: c.id, timeout: BigInt(gracePeriodSeconds) })
            .catch((e: unknown) => this.log.errorS(e, 'Failed to stop container', 'containerID', c.id)),
        ),
    );
  }

  /** `KillPod`: the containers with the grace period, then the sandboxes. */
  async killPod(state: PodRuntimeState, gracePeriodSeconds: number): Promise<void> {
    await this.killContainers(state, gracePeriodSeconds);
    for (const s of state.sandboxes) {
      if (s.state === 'SANDBOX_READY')
        await this.runtime.stopPodSandbox({ podSandboxId: s.id }).catch((e: unknown) => this.log.errorS(e, 'Failed to stop sandbox', 'podSandboxID', s.id));
    }
  }

  /** Removes a killed pod's containers and sandboxes. */
  async removePod(state: PodRuntimeState): Promise<void> {
    for (const c of state.containers)
      await this.runtime.removeContainer({ containerId: c.id }).catch((e: unknown) => this.log.errorS(e, 'Failed to remove container', 'containerID', c.id));
    for (const s of state.sandboxes)
      await this.runtime.removePodSandbox({ podSandboxId: s.id }).catch((e: unknown) => this.log.errorS(e, 'Failed to remove sandbox', 'podSandboxID', s.id));
  }
}

/** The restart count of a container's next instance: one more than its newest. */
function nextRestartCount(instances: readonly ContainerStatus[]): number {
  return instances[0] ? restartCountOf(instances[0]) + 1 : 0;
}
