/**
 * The node agent's pod and container metrics, with kubelet's names, help texts, labels and
 * buckets (`pkg/kubelet/metrics/metrics.go`), and the events that update them: the node's name,
 * pods and containers started (and failing to), how long a pod took to run and a pod sync took,
 * and the pods and containers the runtime has, counted after every pass as kubelet's PLEG relist
 * counts them.
 */
import type { MetricsRegistry } from '../../metrics/registry.js';
import { DEF_BUCKETS } from './buckets.js';

/** kubelet's `podStartupDurationBuckets`. */
export const POD_STARTUP_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600,
]);

/** The `container_type` label: kubelet's metric label of each kind of container. */
export type ContainerTypeLabel = 'container' | 'init_container' | 'ephemeral_container';

/** kubelet's `SyncPodType` names, the `operation_type` of `kubelet_pod_worker_duration_seconds`. */
export type PodWorkerOperation = 'create' | 'update' | 'sync' | 'kill' | 'terminated';

/** What the runtime had after a pass: its sandboxes (by pod) and its containers' CRI states. */
export interface RuntimeInventory {
  readonly sandboxes: readonly { readonly podUid: string; readonly state: string }[];
  readonly containerStates: readonly string[];
}

/** kubecontainer's `ContainerState` values of the CRI container states. */
const CONTAINER_STATE_LABELS: Readonly<Record<string, string>> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown',
};

/** The pod and container metrics of one agent, declared in its registry. */
export class KubeletMetrics {
  private readonly nodeNameGauge;
  private readonly runningPods;
  private readonly runningContainers;
  private readonly startedPods;
  private readonly startedPodsErrors;
  private readonly startedContainers;
  private readonly startedContainersErrors;
  private readonly podStartDuration;
  private readonly podWorkerDuration;
  /** Every `container_state` ever set, so that a state no container has any more reads 0. */
  private readonly statesSeen = new Set<string>();

  constructor(registry: MetricsRegistry) {
    this.nodeNameGauge = registry.gauge({ name: 'kubelet_node_name', help: "The node's name. The count is always 1.", labelNames: ['node'] });
    this.runningPods = registry.gauge({ name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox' });
    this.runningContainers = registry.gauge({
      name: 'kubelet_running_containers',
      help: 'Number of containers currently running',
      labelNames: ['container_state'],
    });
    this.startedPods = registry.counter({ name: 'kubelet_started_pods_total', help: 'Cumulative number of pods started' });
    this.startedPodsErrors = registry.counter({ name: 'kubelet_started_pods_errors_total', help: 'Cumulative number of errors when starting pods' });
    this.startedContainers = registry.counter({
      name: 'kubelet_started_containers_total',
      help: 'Cumulative number of containers started',
      labelNames: ['container_type'],
    });
    this.startedContainersErrors = registry.counter({
      name: 'kubelet_started_containers_errors_total',
      help: 'Cumulative number of errors when starting containers',
      labelNames: ['container_type', 'code'],
    });
    this.podStartDuration = registry.histogram({
      name: 'kubelet_pod_start_duration_seconds',
      help: 'Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run',
      buckets: POD_STARTUP_DURATION_BUCKETS,
    });
    this.podWorkerDuration = registry.histogram({
      name: 'kubelet_pod_worker_duration_seconds',
      help: 'Duration in seconds to sync a single pod. Broken down by operation type: create, update, or sync',
      labelNames: ['operation_type'],
      buckets: DEF_BUCKETS,
    });
  }

  /** kubelet's `SetNodeName`: the gauge of the node's name is 1. */
  setNodeName(nodeName: string): void {
    this.nodeNameGauge.set({ node: nodeName }, 1);
  }

  /** A new sandbox is asked for (kubelet counts the attempt before `RunPodSandbox`), and whether it failed. */
  podSandboxStarted(failed: boolean): void {
    this.startedPods.inc();
    if (failed) this.startedPodsErrors.inc();
  }

  /** A container start is attempted (not one waiting in back-off). */
  containerStartAttempted(type: ContainerTypeLabel): void {
    this.startedContainers.inc({ container_type: type });
  }

  /** The attempt failed; `code` is kubelet's error name (`CreateContainerError`, `ErrImagePull`, ...). */
  containerStartFailed(type: ContainerTypeLabel, code: string): void {
    this.startedContainersErrors.inc({ container_type: type, code });
  }

  /** Seconds from the agent first seeing a pod to its running. */
  podStarted(seconds: number): void {
    this.podStartDuration.observe({}, seconds);
  }

  /** One pod worker run of `operation`, `seconds` long. */
  podWorked(operation: PodWorkerOperation, seconds: number): void {
    this.podWorkerDuration.observe({ operation_type: operation }, seconds);
  }

  /** kubelet's `updateRunningPodAndContainerMetrics`: ready sandboxes, and containers by state. */
  runtimeInventory(inventory: RuntimeInventory): void {
    // A pod counts once, however many ready sandboxes it has.
    this.runningPods.set({}, new Set(inventory.sandboxes.filter((s) => s.state === 'SANDBOX_READY').map((s) => s.podUid)).size);
    const counts = new Map<string, number>();
    for (const state of inventory.containerStates) {
      const label = CONTAINER_STATE_LABELS[state] ?? 'unknown';
      counts.set(label, (counts.get(label) ?? 0) + 1);
      this.statesSeen.add(label);
    }
    for (const label of this.statesSeen) this.runningContainers.set({ container_state: label }, counts.get(label) ?? 0);
  }
}
