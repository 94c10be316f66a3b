/**
 * What the runtime has of a pod: its sandboxes and containers with their statuses, newest
 * first, found by the pod-uid label kubelet puts on both (kuberuntime's `GetPodStatus`).
 */
import { CRI_LABELS, CriError, type ContainerStatus, type PodSandboxStatus, type RuntimeService } from '../../cri/api.js';
import { CONTAINER_ANNOTATIONS } from './container-config.js';

/** A container's status with the sandbox it belongs to (from the container list). */
export type RuntimeContainer = ContainerStatus & { readonly podSandboxId: string };

/** A pod's sandboxes and containers. */
export interface PodRuntimeState {
  /** Newest first. */
  readonly sandboxes: readonly PodSandboxStatus[];
  /** Newest first. */
  readonly containers: readonly RuntimeContainer[];
}

const NOT_FOUND = 5;

/** Reads one pod's state; sandboxes or containers removed meanwhile are left out. */
export async function readPodRuntimeState(runtime: RuntimeService, uid: string): Promise<PodRuntimeState> {
  const selector = { labelSelector: { [CRI_LABELS.podUid]: uid } };
  const [sandboxList, containerList] = await Promise.all([runtime.listPodSandbox({ filter: selector }), runtime.listContainers({ filter: selector })]);
  const gone = (e: unknown) => {
    if (e instanceof CriError && e.code === NOT_FOUND) return undefined;
    throw e;
  };
  const sandboxes = (await Promise.all(sandboxList.items.map((s) => runtime.podSandboxStatus({ podSandboxId: s.id }).then((r) => r.status, gone)))).filter(
    (s): s is PodSandboxStatus => s !== undefined,
  );
  const containers = (
    await Promise.all(
      containerList.containers.map((c) => runtime.containerStatus({ containerId: c.id }).then((r) => ({ ...r.status, podSandboxId: c.podSandboxId }), gone)),
    )
  ).filter((c): c is RuntimeContainer => c !== undefined);
  sandboxes.sort((a, b) => b.metadata.attempt - a.metadata.attempt || (b.createdAt > a.createdAt ? 1 : b.createdAt < a.createdAt ? -1 : 0));
  containers.sort((a, b) => (b.createdAt > a.createdAt ? 1 : b.createdAt < a.createdAt ? -1 : 0) || restartCountOf(b) - restartCountOf(a));
  return { sandboxes, containers };
}

/** The restart count a container was created with (kubelet's annotation), else its attempt. */
export function restartCountOf(c: ContainerStatus): number {
  const n = Number(c.annotations?.[CONTAINER_ANNOTATIONS.restartCount]);
  return Number.isInteger(n) && n >= 0 ? n : c.metadata.attempt;
}

/** The containers of one name, newest first. */
export function containersNamed(state: PodRuntimeState, name: string): RuntimeContainer[] {
  return state.containers.filter((c) => (c.labels?.[CRI_LABELS.containerName] ?? c.metadata.name) === name);
}

/** The pod uids of every sandbox and container the agent made (orphans are found among them). */
export async function podUidsInRuntime(runtime: RuntimeService): Promise<Set<string>> {
  const [sandboxes, containers] = await Promise.all([runtime.listPodSandbox({}), runtime.listContainers({})]);
  const uids = new Set<string>();
  for (const item of [...sandboxes.items, ...containers.containers]) {
    const uid = item.labels?.[CRI_LABELS.podUid];
    if (uid) uids.add(uid);
  }
  return uids;
}

/** Nanoseconds since the epoch as RFC 3339 seconds (`metav1.Time`); undefined for 0. */
export function nanosToTime(ns: bigint): string | undefined {
  if (ns <= 0n) return undefined;
  return new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Nanoseconds since the epoch as milliseconds. */
export function nanosToMs(ns: bigint): number {
  return Number(ns / 1_000_000n);
}
