/**
 * Registering the node and keeping its status current, as kubelet's `registerWithAPIServer` and
 * `updateNodeStatus` do: create the Node once (status included); when it exists already (409),
 * read it and patch back the default labels and annotation that drifted; then every
 * nodeStatusUpdateFrequency patch `nodes/<name>/status` with the setters' status.
 */
import type { Node } from '../../kinds/types/core-v1.js';
import type { Clock } from '../../clock.js';
import type { ImageService, RuntimeService, VersionResponse } from '../../cri/api.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';
import type { HostFacts } from './host-facts.js';
import { initialNode, nodeStatus, type NodeIdentity } from './node-object.js';

const STRATEGIC = 'application/strategic-merge-patch+json';

/** RFC 3339 seconds of a clock reading, as `metav1.Time` is written. */
export function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The node's registration and status. */
export class NodeStatusReporter {
  private registered = false;
  private uid: string | undefined;
  private lastStatusAt: number | undefined;
  private version: VersionResponse | undefined;
  private runtimeStatusRead = false;

  constructor(
    private readonly kube: KubeApiClient,
    private readonly runtime: RuntimeService & ImageService,
    private readonly id: NodeIdentity,
    private readonly host: HostFacts,
    private readonly clock: Clock,
    /** nodeStatusUpdateFrequency in milliseconds (kubelet: 10s). */
    private readonly updateFrequencyMs: number,
  ) {}

  /** The Node's uid once registered (owner of the lease and of mirror pods). */
  get nodeUid(): string | undefined {
    return this.uid;
  }

  get isRegistered(): boolean {
    return this.registered;
  }

  private async status(previous: Node['status'] | undefined): Promise<NonNullable<Node['status']>> {
    let runtimeConditions;
    const runtimeStatusEverRead = this.runtimeStatusRead;
    try {
      this.version ??= await this.runtime.version({ version: '0.1.0' });
      runtimeConditions = (await this.runtime.status({})).status.conditions;
      this.runtimeStatusRead = true;
    } catch {
      // reported in the Ready condition
    }
    const images = await this.runtime.listImages({}).then(
      (r) => r.images,
      () => [],
    );
    return nodeStatus(
      { id: this.id, host: this.host, version: this.version, runtimeConditions, runtimeStatusEverRead, images, now: rfc3339Seconds(this.clock.now()) },
      previous,
    );
  }

  /** Creates the Node, or adopts the existing one; true once registered. */
  async register(): Promise<boolean> {
    if (this.registered) return true;
    const node = initialNode(this.id, this.host);
    node.status = await this.status(undefined);
    try {
      const created = await this.kube.request<Node>('POST', '/api/v1/nodes', { body: node });
      this.adopt(created);
      return true;
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.code !== 409) throw e;
    }
    const existing = await this.kube.request<Node>('GET', `/api/v1/nodes/${encodeURIComponent(this.id.nodeName)}`);
    // reconcile the default labels and the attach-detach annotation (updateDefaultLabels, reconcileCMADAnnotation)
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) if (existing.metadata?.labels?.[k] !== v) labels[k] = v;
    const annotations: Record<string, string> = {};
    for (const [k, v] of Object.entries(node.metadata?.annotations ?? {})) if (existing.metadata?.annotations?.[k] !== v) annotations[k] = v;
    if (Object.keys(labels).length || Object.keys(annotations).length) {
      const patched = await this.kube.request<Node>('PATCH', `/api/v1/nodes/${encodeURIComponent(this.id.nodeName)}`, {
        contentType: STRATEGIC,
        body: { metadata: { ...(Object.keys(labels).length ? { labels } : {}), ...(Object.keys(annotations).length ? { annotations } : {}) } },
      });
      this.adopt(patched);
    } else {
      this.adopt(existing);
    }
    return true;
  }

  private adopt(node: Node): void {
    this.registered = true;
    this.uid = node.metadata?.uid;
  }

  /** Patches `nodes/<name>/status` when the update frequency has passed (or `force`); registers first. */
  async sync(force = false): Promise<void> {
    const now = this.clock.now();
    if (!this.registered) {
      await this.register();
      this.lastStatusAt = now;
      return;
    }
    if (!force && this.lastStatusAt !== undefined && now - this.lastStatusAt < this.updateFrequencyMs) return;
    const path = `/api/v1/nodes/${encodeURIComponent(this.id.nodeName)}`;
    let current: Node;
    try {
      current = await this.kube.request<Node>('GET', path);
    } catch (e) {
      // The node was deleted: register it again, as kubelet does when its Node is gone.
      if (e instanceof KubeApiError && e.code === 404) {
        this.registered = false;
        await this.register();
        this.lastStatusAt = now;
        return;
      }
      throw e;
    }
    this.uid = current.metadata?.uid;
    const status = await this.status(current.status);
    await this.kube.request('PATCH', `${path}/status`, { contentType: STRATEGIC, body: { status } });
    this.lastStatusAt = now;
  }
}
