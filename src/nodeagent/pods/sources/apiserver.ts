/**
 * The pods the API server binds to this node, as kubelet's apiserver source (a reflector) keeps
 * them: list `pods?fieldSelector=spec.nodeName=<node>`, then watch from the list's
 * resourceVersion, resuming from the last event's; a `410 Gone` (resourceVersion too old)
 * relists.
 */
import type { Pod } from '../../../kinds/types/core-v1.js';
import type { AgentLog } from '../../agent-log.js';
import { KubeApiError, type KubeApiClient } from '../../kube-api.js';

/** Called after the store changed. */
export type PodsChanged = () => void;

/** The node's pods in the API server. */
export class ApiServerPodSource {
  private readonly pods = new Map<string, Pod>();
  private resourceVersion: string | undefined;
  private listedOnce = false;

  constructor(
    private readonly kube: KubeApiClient,
    private readonly nodeName: string,
    private readonly log: AgentLog,
  ) {}

  private get query(): Record<string, string> {
    return { fieldSelector: `spec.nodeName=${this.nodeName}` };
  }

  /** Whether a list has succeeded (until then the agent knows no API pods, and cleans up nothing). */
  get synced(): boolean {
    return this.listedOnce;
  }

  /** The pods, by uid. */
  all(): Pod[] {
    return [...this.pods.values()];
  }

  /** Lists the pods afresh, replacing the store. */
  async relist(): Promise<void> {
    const list = await this.kube.request<{ metadata?: { resourceVersion?: string }; items?: Pod[] }>('GET', '/api/v1/pods', { query: this.query });
    this.pods.clear();
    for (const p of list.items ?? []) if (p.metadata?.uid) this.pods.set(p.metadata.uid, p);
    this.resourceVersion = list.metadata?.resourceVersion;
    this.listedOnce = true;
  }

  /** Applies one watch event; false when the watch must be restarted from a fresh list. */
  private apply(type: string, object: Pod & { code?: number }): boolean {
    if (type === 'ERROR') {
      this.log.infoS('Watch of pods ended with an error, listing again', 'code', object.code);
      this.resourceVersion = undefined;
      return false;
    }
    const rv = object.metadata?.resourceVersion;
    if (rv) this.resourceVersion = rv;
    if (type === 'BOOKMARK') return true;
    const uid = object.metadata?.uid;
    if (!uid) return true;
    if (type === 'DELETED') this.pods.delete(uid);
    else this.pods.set(uid, object);
    return true;
  }

  /** Lists and watches until `signal` aborts, calling `changed` after every change; errors wait `retryMs` and start over. */
  async run(signal: AbortSignal, changed: PodsChanged, retryMs = 1000): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === undefined) {
          await this.relist();
          changed();
        }
        const events = this.kube.watch('/api/v1/pods', {
          query: { ...this.query, resourceVersion: this.resourceVersion!, allowWatchBookmarks: 'true' },
          signal,
        });
        for await (const e of events) {
          const ok = this.apply(e.type, e.object as Pod & { code?: number });
          if (!ok) break;
          if (e.type !== 'BOOKMARK') changed();
        }
      } catch (e) {
        if (signal.aborted) return;
        if (e instanceof KubeApiError && e.code === 410) {
          this.resourceVersion = undefined;
          continue;
        }
        this.log.errorS(e, 'Failed to watch pods of the node', 'node', this.nodeName);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, retryMs);
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(t);
              resolve();
            },
            { once: true },
          );
        });
      }
    }
  }
}
