/**
 * One pass over every pod the node should have, as kubelet's pod workers and housekeeping do:
 * each desired pod synced (or, deleted or finished, killed), its status generated and written
 * (a static pod's to its mirror), the final delete of a pod whose deletion is done, mirror pods
 * created, replaced and removed, and the runtime's pods that no source has any more killed and
 * removed.
 */
import type { Pod, PodStatus } from '../../kinds/types/core-v1.js';
import type { RuntimeService } from '../../cri/api.js';
import type { Clock } from '../../clock.js';
import type { AgentLog } from '../agent-log.js';
import type { KubeApiClient } from '../kube-api.js';
import { deletePodNow, isMirrorPodOf, MirrorPodClient } from './mirror.js';
import { generatePodStatus } from './pod-status.js';
import type { PodSyncer } from './pod-syncer.js';
import { formatPod, gracePeriodOf, isMirrorPod, isStaticPod, podKey } from './pod-util.js';
import { podUidsInRuntime, readPodRuntimeState } from './runtime-state.js';
import { PodStatusWriter } from './status-writer.js';
import type { KubeletMetrics, PodWorkerOperation } from '../metrics/kubelet-metrics.js';

/** A pod the agent runs, with the status it last generated. */
export interface PodRecord {
  readonly pod: Pod;
  readonly status: PodStatus;
}

/**
 * A pod admission check (kubelet's `PodAdmitHandler`, e.g. sysctls): admit, or reject with a reason.
 * @category Node agent
 */
export type PodAdmitter = (pod: Pod) => { admit: true } | { admit: false; reason: string; message: string };

/** What a pass needs to know about the node. */
export interface NodeFacts {
  readonly nodeName: string;
  readonly nodeUid: string | undefined;
  readonly hostIPs: readonly string[];
  readonly runtimeName: string;
}

function timeOf(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const isTerminalPhase = (phase: string | undefined) => phase === 'Succeeded' || phase === 'Failed';

/** The pods of the node and their passes. */
export class PodWorkers {
  private readonly records = new Map<string, PodRecord>();
  private readonly startTimes = new Map<string, string>();
  /** When the agent first saw each pod (kubelet's first-seen annotation), in clock milliseconds. */
  private readonly firstSeen = new Map<string, number>();
  private readonly statuses: PodStatusWriter;
  private readonly mirrors: MirrorPodClient;

  constructor(
    private readonly kube: KubeApiClient,
    private readonly runtime: RuntimeService,
    private readonly syncer: PodSyncer,
    private readonly clock: Clock,
    private readonly log: AgentLog,
    nodeName: string,
    private readonly admitters: readonly PodAdmitter[] = [],
    /** Pod start and pod worker durations; nothing is measured without it. */
    private readonly metrics?: KubeletMetrics,
  ) {
    this.statuses = new PodStatusWriter(kube);
    this.mirrors = new MirrorPodClient(kube, nodeName);
  }

  /** The pods the agent runs (static pods under their own uid), with their latest status. */
  all(): Pod[] {
    return [...this.records.values()].map((r) => ({ ...r.pod, status: r.status }));
  }

  /** One pod by namespace and name. */
  byName(namespace: string, name: string): Pod | undefined {
    for (const r of this.records.values()) if (r.pod.metadata?.namespace === namespace && r.pod.metadata?.name === name) return { ...r.pod, status: r.status };
    return undefined;
  }

  /**
   * One pass: `apiPods` are the node's pods in the API server (mirror pods among them),
   * `staticPods` those of its files and URL. `cleanup` kills what the runtime has of pods
   * neither knows (only once the API server's pods are known).
   */
  async syncAll(apiPods: readonly Pod[], staticPods: readonly Pod[], node: NodeFacts, cleanup: boolean): Promise<void> {
    const mirrorByKey = new Map<string, Pod>();
    const regular: Pod[] = [];
    for (const p of apiPods) {
      if (isMirrorPod(p)) mirrorByKey.set(podKey(p), p);
      else regular.push(p);
    }
    const desired = [...regular, ...staticPods];
    const desiredUids = new Set(desired.map((p) => p.metadata?.uid ?? ''));
    for (const pod of desired) {
      const operation = this.operationOf(pod);
      const started = performance.now();
      try {
        await this.syncOne(pod, isStaticPod(pod) ? mirrorByKey.get(podKey(pod)) : undefined, node);
      } catch (e) {
        this.log.errorS(e, 'Error syncing pod, skipping', 'pod', formatPod(pod));
      }
      this.metrics?.podWorked(operation, (performance.now() - started) / 1000);
    }
    // Mirror pods whose static pod is gone (HandlePodCleanups' orphaned mirror pods).
    const staticKeys = new Set(staticPods.map(podKey));
    for (const [key, mirror] of mirrorByKey) {
      if (staticKeys.has(key)) continue;
      await this.mirrors.delete(mirror).catch((e: unknown) => this.log.errorS(e, 'Failed deleting a mirror pod', 'pod', key));
    }
    for (const uid of [...this.records.keys()]) if (!desiredUids.has(uid)) await this.removeRecord(uid);
    if (cleanup) {
      for (const uid of await podUidsInRuntime(this.runtime)) {
        if (desiredUids.has(uid)) continue;
        const state = await readPodRuntimeState(this.runtime, uid);
        await this.syncer.killPod(state, 0);
        await this.syncer.removePod(await readPodRuntimeState(this.runtime, uid));
        this.syncer.forget(uid);
      }
    }
  }

  /** kubelet's `SyncPodType` of a pod's work: the first sync creates, a changed pod updates, a deleted one is killed. */
  private operationOf(pod: Pod): PodWorkerOperation {
    const record = this.records.get(pod.metadata?.uid ?? '');
    if (!record) return 'create';
    if (pod.metadata?.deletionTimestamp) return 'kill';
    return record.pod.metadata?.resourceVersion !== pod.metadata?.resourceVersion ? 'update' : 'sync';
  }

  private async removeRecord(uid: string): Promise<void> {
    const started = performance.now();
    const state = await readPodRuntimeState(this.runtime, uid);
    await this.syncer.killPod(state, 0);
    await this.syncer.removePod(await readPodRuntimeState(this.runtime, uid));
    this.records.delete(uid);
    this.startTimes.delete(uid);
    this.firstSeen.delete(uid);
    this.metrics?.podWorked('terminated', (performance.now() - started) / 1000);
    this.statuses.forget(uid);
    this.syncer.forget(uid);
  }

  private async syncOne(pod: Pod, mirror: Pod | undefined, node: NodeFacts): Promise<void> {
    const uid = pod.metadata?.uid ?? '';
    const staticPod = isStaticPod(pod);
    let startTime = this.startTimes.get(uid);
    if (!startTime) this.startTimes.set(uid, (startTime = timeOf(this.clock.now())));
    if (!this.firstSeen.has(uid)) this.firstSeen.set(uid, this.clock.now());
    const previous = this.records.get(uid)?.status ?? (staticPod ? mirror?.status : pod.status);
    const withPrevious: Pod = { ...pod, status: previous };
    const deleting = !!pod.metadata?.deletionTimestamp;
    if (!this.records.has(uid) && !deleting && !isTerminalPhase(previous?.phase)) {
      // A pod the node has not taken yet passes the admit handlers first; a rejected one never
      // runs and fails with the handler's reason (kubelet's HandlePodAdditions and rejectPod).
      for (const admit of this.admitters) {
        const result = admit(pod);
        if (result.admit) continue;
        this.log.infoS('Pod admission rejected', 'pod', formatPod(pod), 'reason', result.reason);
        const status: PodStatus = { ...previous, phase: 'Failed', reason: result.reason, message: `Pod was rejected: ${result.message}` };
        this.records.set(uid, { pod, status });
        const target = staticPod ? await this.ensureMirror(pod, mirror, node) : pod;
        if (target) await this.statuses.write(target, status);
        return;
      }
    }
    let terminal = deleting || isTerminalPhase(previous?.phase);

    let state = await readPodRuntimeState(this.runtime, uid);
    if (!terminal) {
      await this.syncer.syncPod(withPrevious, state, { hostIP: node.hostIPs[0] ?? '' });
      state = await readPodRuntimeState(this.runtime, uid);
    }
    const generate = (t: boolean) =>
      generatePodStatus({
        pod: withPrevious,
        state,
        waiting: this.syncer.waitingOf(uid),
        hostIPs: node.hostIPs,
        runtimeName: node.runtimeName,
        startTime: startTime!,
        terminal: t,
        now: timeOf(this.clock.now()),
      });
    let status = generate(terminal);
    if (!terminal && isTerminalPhase(status.phase)) terminal = true;
    if (terminal) {
      // A finished or deleted pod: stop what still runs (the grace period for a deletion), then report it.
      const running = state.containers.some((c) => c.state !== 'CONTAINER_EXITED') || state.sandboxes.some((s) => s.state === 'SANDBOX_READY');
      if (running) {
        await this.syncer.killPod(state, deleting ? gracePeriodOf(pod) : 0);
        state = await readPodRuntimeState(this.runtime, uid);
      }
      status = generate(true);
    } else {
      // kubelet's SyncPod observes the start latency when the status manager has no status of the
      // pod yet (its first sync) or the pod goes from Pending to Running.
      const known = this.records.get(uid)?.status;
      if (!known || (known.phase === 'Pending' && status.phase === 'Running')) {
        this.metrics?.podStarted((this.clock.now() - this.firstSeen.get(uid)!) / 1000);
      }
    }
    this.records.set(uid, { pod, status });

    const target = staticPod ? await this.ensureMirror(pod, mirror, node) : pod;
    if (target && !(staticPod && target.metadata?.deletionTimestamp)) {
      await this.statuses.write(target, status);
    }
    if (deleting && !staticPod && state.containers.every((c) => c.state === 'CONTAINER_EXITED')) {
      // The status manager's last step: the pod is gone from the API server once its containers are.
      if (await deletePodNow(this.kube, pod)) this.log.infoS('Pod deleted from the API server after its containers stopped', 'pod', formatPod(pod));
    }
  }

  /** The mirror pod of a static pod, created (or replaced when stale or being deleted) once the node is registered. */
  private async ensureMirror(pod: Pod, mirror: Pod | undefined, node: NodeFacts): Promise<Pod | undefined> {
    if (mirror && !mirror.metadata?.deletionTimestamp && isMirrorPodOf(mirror, pod)) return mirror;
    if (mirror) {
      await this.mirrors.delete(mirror);
    }
    if (!node.nodeUid) return undefined;
    try {
      return await this.mirrors.create(pod, node.nodeUid);
    } catch (e) {
      this.log.errorS(e, 'Failed creating a mirror pod for', 'pod', formatPod(pod));
      return undefined;
    }
  }
}
