/**
 * The pod status the agent reports, as kubelet's `generateAPIPodStatus` builds it from the
 * runtime: container statuses (state, last state, restart count, ids), the phase (`getPhase`),
 * the conditions (PodReadyToStartContainers, Initialized, ContainersReady, Ready, PodScheduled),
 * host and pod IPs, start time and QoS class.
 */
import type { Container, ContainerStatus as ApiContainerStatus, Pod, PodCondition, PodStatus } from '../../kinds/types/core-v1.js';
import type { ContainerStatus } from '../../cri/api.js';
import { containersNamed, nanosToTime, restartCountOf, type PodRuntimeState } from './runtime-state.js';
import { containersOf, initContainersOf, isHostNetwork, restartPolicyOf } from './pod-util.js';

/** A reason a container is waiting that the sync decided (ErrImagePull, CrashLoopBackOff, ...). */
export interface WaitingReason {
  readonly reason: string;
  readonly message?: string;
}

/** What the status is built from. */
export interface PodStatusInputs {
  readonly pod: Pod;
  readonly state: PodRuntimeState;
  /** By container name. */
  readonly waiting: ReadonlyMap<string, WaitingReason>;
  readonly hostIPs: readonly string[];
  /** The runtime's name (`containerd`): the scheme of container ids. */
  readonly runtimeName: string;
  /** When the agent first synced the pod (RFC 3339). */
  readonly startTime: string;
  /** The pod is being stopped for good (deleted, or finished): no container is ready and the phase is final. */
  readonly terminal: boolean;
  /** RFC 3339: the transition time of changed conditions. */
  readonly now: string;
}

function terminatedOf(c: ContainerStatus, runtimeName: string): NonNullable<ApiContainerStatus['state']>['terminated'] {
  return {
    exitCode: c.exitCode,
    reason: c.reason || (c.exitCode === 0 ? 'Completed' : 'Error'),
    ...(c.message ? { message: c.message } : {}),
    ...(nanosToTime(c.startedAt) ? { startedAt: nanosToTime(c.startedAt) } : {}),
    ...(nanosToTime(c.finishedAt) ? { finishedAt: nanosToTime(c.finishedAt) } : {}),
    containerID: `${runtimeName}://${c.id}`,
  };
}

/** One container's API status from its runtime containers (newest first). */
export function containerStatusOf(
  container: Container,
  instances: readonly ContainerStatus[],
  waiting: WaitingReason | undefined,
  runtimeName: string,
  defaultWaiting: string,
  terminal: boolean,
): ApiContainerStatus {
  const [latest, previous] = instances;
  const base = { name: container.name, image: container.image ?? '', imageID: latest?.imageRef ?? '' };
  if (!latest) {
    return {
      ...base,
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { reason: waiting?.reason ?? defaultWaiting, ...(waiting?.message ? { message: waiting.message } : {}) } },
    };
  }
  const restartCount = restartCountOf(latest);
  const ids = { containerID: `${runtimeName}://${latest.id}` };
  const lastState = previous && previous.state === 'CONTAINER_EXITED' ? { terminated: terminatedOf(previous, runtimeName) } : {};
  switch (latest.state) {
    case 'CONTAINER_RUNNING':
      return {
        ...base,
        ...ids,
        ready: !terminal,
        restartCount,
        started: true,
        state: { running: { startedAt: nanosToTime(latest.startedAt) ?? nanosToTime(latest.createdAt) } },
        lastState,
      };
    case 'CONTAINER_EXITED':
      if (waiting && !terminal) {
        // About to be restarted: waiting, with the exit it restarts after as its last state.
        return {
          ...base,
          ...ids,
          ready: false,
          restartCount,
          started: false,
          state: { waiting: { reason: waiting.reason, ...(waiting.message ? { message: waiting.message } : {}) } },
          lastState: { terminated: terminatedOf(latest, runtimeName) },
        };
      }
      return { ...base, ...ids, ready: false, restartCount, started: false, state: { terminated: terminatedOf(latest, runtimeName) }, lastState };
    default:
      return {
        ...base,
        ...ids,
        ready: false,
        restartCount,
        started: false,
        state: { waiting: { reason: waiting?.reason ?? 'ContainerCreating', ...(waiting?.message ? { message: waiting.message } : {}) } },
        lastState,
      };
  }
}

/** kubelet's `getPhase`. */
export function podPhase(
  pod: Pod,
  init: readonly ApiContainerStatus[],
  regular: readonly ApiContainerStatus[],
  terminal: boolean,
): NonNullable<PodStatus['phase']> {
  let pendingInit = 0;
  let failedInit = 0;
  for (const s of init) {
    if (s.state?.running) pendingInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state?.waiting && s.lastState?.terminated) {
      if (s.lastState.terminated.exitCode !== 0) failedInit++;
    } else pendingInit++;
  }
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const s of regular) {
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    }
  }
  const policy = restartPolicyOf(pod);
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || (failedInit > 0 && !terminal)) return 'Pending';
  if (waiting > 0) return terminal ? 'Failed' : 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function condition(type: string, ok: boolean, reason?: string, message?: string): PodCondition {
  return { type, status: ok ? 'True' : 'False', ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** Conditions with lastTransitionTime kept from the previous status while their status holds (the status manager's `updateLastTransitionTime`). */
function withTransitionTimes(conditions: PodCondition[], previous: readonly PodCondition[] | undefined, now: string): PodCondition[] {
  return conditions.map((c) => {
    const old = previous?.find((p) => p.type === c.type);
    return { ...c, lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  });
}

/** `GetPodQOS`: Guaranteed when every container limits and requests cpu and memory equally, BestEffort with no requests or limits, else Burstable. */
export function qosClassOf(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const all = [...initContainersOf(pod), ...containersOf(pod)];
  let any = false;
  let guaranteed = all.length > 0;
  for (const c of all) {
    const req = (c.resources?.requests ?? {}) as Record<string, unknown>;
    const lim = (c.resources?.limits ?? {}) as Record<string, unknown>;
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      if (lim[r] === undefined || (req[r] !== undefined && String(req[r]) !== String(lim[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** The pod's status (`generateAPIPodStatus`). */
export function generatePodStatus(inputs: PodStatusInputs): PodStatus {
  const { pod, state, waiting, runtimeName, terminal } = inputs;
  const inits = initContainersOf(pod);
  const initStatuses = inits.map((c) => containerStatusOf(c, containersNamed(state, c.name), waiting.get(c.name), runtimeName, 'PodInitializing', terminal));
  const initialized = initStatuses.every((s) => s.state?.terminated?.exitCode === 0);
  const regular = containersOf(pod).map((c) =>
    containerStatusOf(c, containersNamed(state, c.name), waiting.get(c.name), runtimeName, initialized ? 'ContainerCreating' : 'PodInitializing', terminal),
  );
  const old = pod.status;
  let phase = podPhase(pod, initStatuses, regular, terminal);
  // A pod never leaves a terminal phase.
  if (old?.phase === 'Succeeded' || old?.phase === 'Failed') phase = old.phase;

  const sandbox = state.sandboxes[0];
  const sandboxReady = sandbox?.state === 'SANDBOX_READY';
  const hostIP = inputs.hostIPs[0];
  const podIP = isHostNetwork(pod) ? hostIP : sandboxReady ? sandbox?.network?.ip || undefined : undefined;

  const unready = regular.filter((s) => !s.ready).map((s) => s.name);
  const incomplete = initStatuses.filter((s) => s.state?.terminated?.exitCode !== 0).map((s) => s.name);
  const readyCondition = (type: string): PodCondition => {
    if (phase === 'Succeeded') return condition(type, false, 'PodCompleted');
    if (unready.length === 0 && regular.length > 0) return condition(type, true);
    return condition(type, false, 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`);
  };
  const conditions = withTransitionTimes(
    [
      condition('PodReadyToStartContainers', sandboxReady && !terminal),
      initialized
        ? condition('Initialized', true)
        : condition('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: [${incomplete.join(' ')}]`),
      readyCondition('Ready'),
      readyCondition('ContainersReady'),
      condition('PodScheduled', true),
    ],
    old?.conditions as PodCondition[] | undefined,
    inputs.now,
  );
  return {
    phase,
    conditions,
    ...(hostIP ? { hostIP, hostIPs: inputs.hostIPs.map((ip) => ({ ip })) } : {}),
    ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: old?.startTime ?? inputs.startTime,
    ...(inits.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: regular,
    qosClass: old?.qosClass ?? qosClassOf(pod),
  };
}
