/**
 * The agent's pods and their containers as the server looks them up: the pod by namespace and
 * name in the agent's pod manager, its containers in the spec, and a container's attempts in the
 * runtime, found by the labels the agent puts on every container it creates.
 */
import type { Container, ContainerState, RuntimeService } from '../../cri/api.js';
import { CRI_LABELS } from '../../cri/api.js';
import type { Pod } from '../../kinds/types/core-v1.js';

/**
 * The agent's pod manager as the server reads it.
 * @category Node agent
 */
export interface NodeAgentPodSource {
  /** The pod of that namespace and name bound to this node, if any. */
  byName(namespace: string, name: string): Pod | undefined;
  /** Every pod bound to this node. */
  all(): readonly Pod[];
}

/** Whether the pod's spec has a container, init container or ephemeral container of that name. */
export function podHasContainer(pod: Pod, name: string): boolean {
  const spec = pod.spec;
  return [...(spec?.containers ?? []), ...(spec?.initContainers ?? []), ...(spec?.ephemeralContainers ?? [])].some((c) => c.name === name);
}

/** kubelet's pod full name, `<name>_<namespace>`. */
export function podFullName(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}`;
}

/**
 * The runtime's containers of the pod's container `name`, the newest attempt first (the current
 * one, then the one before it), optionally only those in `state`.
 */
export async function containerAttempts(runtime: RuntimeService, pod: Pod, name: string, state?: ContainerState): Promise<Container[]> {
  const { containers } = await runtime.listContainers({
    filter: { ...(state ? { state } : {}), labelSelector: { [CRI_LABELS.podUid]: pod.metadata?.uid ?? '', [CRI_LABELS.containerName]: name } },
  });
  return [...containers].sort((a, b) => b.metadata.attempt - a.metadata.attempt || (b.createdAt > a.createdAt ? 1 : b.createdAt < a.createdAt ? -1 : 0));
}
