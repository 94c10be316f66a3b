/**
 * Small facts about a pod the sync, status and source code all read: its full name, keys,
 * restart policy, grace period, host network, and kubelet's `format.Pod` text.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';

/** The annotation a mirror pod carries: the hash of the static pod it mirrors. */
export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
/** The hash (uid) of a static pod's manifest. */
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
/** Where a pod came from: `api`, `file` or `http`. */
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
/** When the agent first saw the pod (RFC 3339 with nanoseconds). */
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';

/** `namespace/name`. */
export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** kubelet's `format.Pod`: `name_namespace(uid)`. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`;
}

export function podUid(pod: Pod): string {
  return pod.metadata?.uid ?? '';
}

export function restartPolicyOf(pod: Pod): 'Always' | 'OnFailure' | 'Never' {
  const p = pod.spec?.restartPolicy;
  return p === 'OnFailure' || p === 'Never' ? p : 'Always';
}

export function isHostNetwork(pod: Pod): boolean {
  return pod.spec?.hostNetwork === true;
}

/** Whether a pod's source is a file or URL on the node (a static pod). */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata?.annotations?.[CONFIG_SOURCE_ANNOTATION];
  return source === 'file' || source === 'http';
}

/** Whether an API server pod is the mirror of a static pod. */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined;
}

/** The regular containers of a pod. */
export function containersOf(pod: Pod): Container[] {
  return (pod.spec?.containers ?? []) as Container[];
}

/** The init containers of a pod. */
export function initContainersOf(pod: Pod): Container[] {
  return (pod.spec?.initContainers ?? []) as Container[];
}

/** kubelet's minimum grace period when killing a container (`minimumGracePeriodInSeconds`). */
export const MINIMUM_GRACE_PERIOD_SECONDS = 2;

/** The seconds a container gets to stop: the deletion's grace period, else the pod's terminationGracePeriodSeconds (30). */
export function gracePeriodOf(pod: Pod): number {
  const seconds = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  return Math.max(Number(seconds), MINIMUM_GRACE_PERIOD_SECONDS);
}

/** The pull policy, defaulted as the API server does: Always for `:latest` or an untagged image, else IfNotPresent. */
export function pullPolicyOf(container: Container): 'Always' | 'IfNotPresent' | 'Never' {
  const p = container.imagePullPolicy;
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return p;
  const image = container.image ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const tagAt = image.indexOf(':', lastSlash + 1);
  const tag = tagAt < 0 ? '' : image.slice(tagAt + 1);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}
