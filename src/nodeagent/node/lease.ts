/**
 * The node's heartbeat Lease, as component-helpers' lease controller runs it for kubelet:
 * `kube-node-lease/<node>`, held by the node, `leaseDurationSeconds` (40 by default), its
 * `renewTime` moved forward every quarter of the duration, owned by the Node so it goes with it.
 */
import type { Lease } from '../../kinds/types/coordination-v1.js';
import type { Clock } from '../../clock.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';

/** The namespace of node leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** kubelet's `nodeLeaseDurationSeconds` default. */
export const DEFAULT_LEASE_DURATION_SECONDS = 40;
/** kubelet renews its lease every quarter of the duration (`nodeLeaseRenewIntervalFraction`). */
export const LEASE_RENEW_FRACTION = 0.25;

/** `metav1.MicroTime` text: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  const micros = String(Math.floor((ms % 1000) * 1000)).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

/** The node's lease. */
export class NodeLease {
  private lastRenew: number | undefined;
  private readonly path: string;

  constructor(
    private readonly kube: KubeApiClient,
    private readonly nodeName: string,
    private readonly clock: Clock,
    /** The Node's uid once known: the lease's owner. */
    private readonly nodeUid: () => string | undefined,
    readonly durationSeconds = DEFAULT_LEASE_DURATION_SECONDS,
  ) {
    this.path = `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases/${encodeURIComponent(nodeName)}`;
  }

  /** How often the lease is renewed, in milliseconds. */
  get renewIntervalMs(): number {
    return this.durationSeconds * 1000 * LEASE_RENEW_FRACTION;
  }

  private owned(lease: Lease): Lease {
    const uid = this.nodeUid();
    if (!uid || (lease.metadata?.ownerReferences?.length ?? 0) > 0) return lease;
    return { ...lease, metadata: { ...lease.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid }] } };
  }

  private spec(): NonNullable<Lease['spec']> {
    return { holderIdentity: this.nodeName, leaseDurationSeconds: this.durationSeconds, renewTime: microTime(this.clock.now()) };
  }

  /** Renews the lease when the renew interval has passed since the last renewal (or `force`); creates it when absent. */
  async sync(force = false): Promise<void> {
    const now = this.clock.now();
    if (!force && this.lastRenew !== undefined && now - this.lastRenew < this.renewIntervalMs) return;
    let existing: Lease | undefined;
    try {
      existing = await this.kube.request<Lease>('GET', this.path);
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.code !== 404) throw e;
    }
    if (!existing) {
      const lease = this.owned({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: this.nodeName, namespace: NODE_LEASE_NAMESPACE },
        spec: this.spec(),
      });
      await this.kube.request('POST', `/apis/coordination.k8s.io/v1/namespaces/${NODE_LEASE_NAMESPACE}/leases`, { body: lease });
    } else {
      await this.kube.request('PUT', this.path, { body: this.owned({ ...existing, spec: { ...existing.spec, ...this.spec() } }) });
    }
    this.lastRenew = now;
  }
}
