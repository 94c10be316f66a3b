/**
 * Writing pod statuses to the API server, as kubelet's status manager does: a strategic merge
 * patch of `pods/<name>/status` carrying the pod's uid (so a pod of the same name made since is
 * not patched), sent only when the status changed since the last write.
 */
import type { Pod, PodStatus } from '../../kinds/types/core-v1.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';

/** The status writes of the agent's pods. */
export class PodStatusWriter {
  private readonly written = new Map<string, string>();

  constructor(private readonly kube: KubeApiClient) {}

  /** Patches `target`'s status when it differs from the last written; answers the patched pod, or undefined when nothing was sent or the pod is gone. */
  async write(target: Pod, status: PodStatus): Promise<Pod | undefined> {
    const uid = target.metadata?.uid ?? '';
    const text = JSON.stringify(status);
    if (this.written.get(uid) === text) return undefined;
    const path = `/api/v1/namespaces/${encodeURIComponent(target.metadata?.namespace ?? '')}/pods/${encodeURIComponent(target.metadata?.name ?? '')}/status`;
    try {
      const patched = await this.kube.request<Pod>('PATCH', path, {
        contentType: 'application/strategic-merge-patch+json',
        body: { metadata: { uid }, status },
      });
      this.written.set(uid, text);
      return patched;
    } catch (e) {
      if (e instanceof KubeApiError && (e.code === 404 || e.code === 409)) return undefined;
      throw e;
    }
  }

  /** Forgets a pod that is gone. */
  forget(uid: string): void {
    this.written.delete(uid);
  }
}
