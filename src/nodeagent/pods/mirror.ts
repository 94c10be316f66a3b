/**
 * Mirror pods: the API server's copy of each static pod, as kubelet's `mirror_client.go` makes
 * it: the static pod with the annotation `kubernetes.io/config.mirror` (its hash) and the Node
 * as controller owner; deleted with a uid precondition and no grace period.
 */
import type { Pod } from '../../kinds/types/core-v1.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';
import { CONFIG_HASH_ANNOTATION, MIRROR_ANNOTATION } from './pod-util.js';

/** Whether `mirror` mirrors this version of `staticPod` (`IsMirrorPodOf`). */
export function isMirrorPodOf(mirror: Pod, staticPod: Pod): boolean {
  return (
    mirror.metadata?.name === staticPod.metadata?.name &&
    mirror.metadata?.namespace === staticPod.metadata?.namespace &&
    mirror.metadata?.annotations?.[MIRROR_ANNOTATION] === staticPod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]
  );
}

/** Creates and deletes mirror pods. */
export class MirrorPodClient {
  constructor(
    private readonly kube: KubeApiClient,
    private readonly nodeName: string,
  ) {}

  /** Creates the mirror of a static pod; an existing mirror of the same hash is fine. */
  async create(staticPod: Pod, nodeUid: string | undefined): Promise<Pod | undefined> {
    const meta = staticPod.metadata ?? {};
    const hash = meta.annotations?.[CONFIG_HASH_ANNOTATION] ?? '';
    const mirror: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: meta.name,
        namespace: meta.namespace,
        ...(meta.labels ? { labels: meta.labels } : {}),
        annotations: { ...meta.annotations, [MIRROR_ANNOTATION]: hash },
        ...(nodeUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: nodeUid, controller: true }] } : {}),
      },
      spec: staticPod.spec,
    };
    const ns = encodeURIComponent(meta.namespace ?? 'default');
    try {
      return await this.kube.request<Pod>('POST', `/api/v1/namespaces/${ns}/pods`, { body: mirror });
    } catch (e) {
      if (e instanceof KubeApiError && e.code === 409) {
        const existing = await this.kube.request<Pod>('GET', `/api/v1/namespaces/${ns}/pods/${encodeURIComponent(meta.name ?? '')}`);
        if (existing.metadata?.annotations?.[MIRROR_ANNOTATION] === hash) return existing;
      }
      throw e;
    }
  }

  /** Deletes a mirror pod (uid precondition, grace period 0); true when it was deleted or already gone. */
  async delete(mirror: Pod): Promise<boolean> {
    return deletePodNow(this.kube, mirror);
  }
}

/** Deletes a pod at once, if it is still the same pod (`gracePeriodSeconds: 0`, uid precondition), as the status manager finishes a deletion. */
export async function deletePodNow(kube: KubeApiClient, pod: Pod): Promise<boolean> {
  try {
    await kube.request(
      'DELETE',
      `/api/v1/namespaces/${encodeURIComponent(pod.metadata?.namespace ?? '')}/pods/${encodeURIComponent(pod.metadata?.name ?? '')}`,
      {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata?.uid } },
      },
    );
    return true;
  } catch (e) {
    if (e instanceof KubeApiError && (e.code === 404 || e.code === 409)) return e.code === 404;
    throw e;
  }
}
