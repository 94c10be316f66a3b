/**
 * Cluster IPs and node ports for Services, never handed out twice while a Service holds them.
 *
 * Each cluster has one table per pool (kept in the cluster's kind state), address → holder. A
 * holder is the Service (namespace, name, uid) that got the address. Nothing is ever released explicitly: an entry
 * counts only while its holder still exists with the same uid *and* still carries the address, so
 * deleting a Service, a failed or dry-run create, or a type change frees its addresses by itself.
 * Dead entries are dropped lazily (when claimed again, or by a sweep when a pool gets crowded).
 *
 * Known limits, without an engine hook: two creates racing for the same explicit address can both
 * win (the first is not stored yet when the second checks), and a cluster on persistent storage
 * reopened in a new process starts with empty tables.
 */
import type { KindContext, KubeObject } from '../../../schema/define-kind.js';
import type { Service } from '../../types/core-v1.js';
import { formatIPv4, ipv4Range, NODE_PORT_RANGE, parseIPv4Sloppy, SERVICE_CIDR, type IPv4Range } from './ip.js';

/** The Service an address was given to. `name` is unknown until a generated name is chosen. */
interface Holder {
  readonly namespace: string;
  readonly uid: string;
  name?: string;
}

interface Pool<K> {
  readonly entries: Map<K, Holder>;
}

interface ClusterTables {
  readonly ips: Pool<string>;
  readonly nodePorts: Pool<number>;
  /** Holders whose Service has no name yet, by uid. */
  readonly unnamed: Map<string, Holder>;
}

const SERVICES = { group: '', resource: 'services' } as const;
const ipRange: IPv4Range = ipv4Range(SERVICE_CIDR);
const nodePortSize = NODE_PORT_RANGE.last - NODE_PORT_RANGE.first + 1;
/** Kubernetes' static band of the node port range: size/32, at least 16 and at most 128. */
const nodePortStaticBand = Math.min(128, Math.max(16, Math.floor(nodePortSize / 32)));

function tablesFor(ctx: KindContext): ClusterTables {
  return ctx.state<ClusterTables>('core/services/allocator', () => ({ ips: { entries: new Map() }, nodePorts: { entries: new Map() }, unnamed: new Map() }));
}

function holdsIP(svc: Service, ip: string): boolean {
  return (svc.spec?.clusterIPs ?? []).includes(ip) || svc.spec?.clusterIP === ip;
}

function holdsNodePort(svc: Service, port: number): boolean {
  return (svc.spec?.ports ?? []).some((p) => p.nodePort === port) || svc.spec?.healthCheckNodePort === port;
}

/** What an allocation attempt gives: the address, or Kubernetes' error text. */
export type Allocation<K> = { value: K } | { error: string };

/** The allocator for one Service write. */
export class ServiceAllocator {
  private constructor(
    private readonly ctx: KindContext,
    private readonly tables: ClusterTables,
    private readonly holder: Holder,
  ) {}

  /** The allocator acting for `svc` (which has its uid already). */
  static async for(ctx: KindContext, svc: Readonly<Service>): Promise<ServiceAllocator> {
    const tables = tablesFor(ctx);
    const meta = svc.metadata ?? {};
    const holder: Holder = { namespace: meta.namespace ?? '', uid: meta.uid ?? '', name: meta.name || undefined };
    if (!holder.name && holder.uid) tables.unnamed.set(holder.uid, holder);
    return new ServiceAllocator(ctx, tables, holder);
  }

  /** Records the name of a Service whose name was generated after its addresses were allocated. */
  static async bindName(ctx: KindContext, svc: Readonly<Service>): Promise<void> {
    const uid = svc.metadata?.uid;
    if (!uid || !svc.metadata?.name) return;
    const tables = tablesFor(ctx);
    const holder = tables.unnamed.get(uid);
    if (!holder) return;
    holder.name = svc.metadata.name;
    tables.unnamed.delete(uid);
  }

  /** Whether another Service still exists and carries the address (this Service's own entries are not "another"). */
  private async heldByOther(holder: Holder, holds: (svc: Service) => boolean): Promise<boolean> {
    if (holder.uid === this.holder.uid || !holder.name) return false;
    const svc = (await this.ctx.read(SERVICES, holder.namespace, holder.name)) as (KubeObject & Service) | undefined;
    return !!svc && svc.metadata?.uid === holder.uid && holds(svc);
  }

  /** Drops the entries whose holder is gone. */
  private async sweep<K>(pool: Pool<K>, holds: (svc: Service, k: K) => boolean): Promise<void> {
    for (const [k, holder] of [...pool.entries]) {
      if (holder.uid === this.holder.uid) continue;
      if (!(await this.heldByOther(holder, (svc) => holds(svc, k)))) pool.entries.delete(k);
    }
    for (const [uid, holder] of [...this.tables.unnamed]) {
      if (holder !== this.holder) this.tables.unnamed.delete(uid);
    }
  }

  /** Claims `k` when it is free (or held by a Service that let go of it); the error text otherwise. */
  private async claim<K>(pool: Pool<K>, k: K, holds: (svc: Service) => boolean): Promise<boolean> {
    const current = pool.entries.get(k);
    // Claimed already by this very write (two ports asking for one node port), or held by another Service.
    if (current === this.holder) return false;
    if (current && (await this.heldByOther(current, holds))) return false;
    pool.entries.set(k, this.holder);
    return true;
  }

  /** Finds a free value, starting at a random point of the upper (dynamic) band, then the lower one. */
  private async next<K>(
    pool: Pool<K>,
    first: number,
    last: number,
    staticBand: number,
    toKey: (n: number) => K,
    holds: (svc: Service, k: K) => boolean,
  ): Promise<K | undefined> {
    const found = this.scan(pool, first, last, staticBand, toKey);
    if (found !== undefined) return found;
    // Full of entries: drop the ones whose Service let go, then look once more.
    await this.sweep(pool, holds);
    return this.scan(pool, first, last, staticBand, toKey);
  }

  private scan<K>(pool: Pool<K>, first: number, last: number, staticBand: number, toKey: (n: number) => K): K | undefined {
    const bands: [number, number][] = [
      [first + staticBand, last],
      [first, first + staticBand - 1],
    ];
    for (const [lo, hi] of bands) {
      const span = hi - lo + 1;
      if (span <= 0) continue;
      const start = Math.floor(Math.random() * span);
      for (let i = 0; i < span; i++) {
        const k = toKey(lo + ((start + i) % span));
        if (!pool.entries.has(k)) {
          pool.entries.set(k, this.holder);
          return k;
        }
      }
    }
    return undefined;
  }

  /** A cluster IP: the requested one (checked), or a free one. Errors as the IP allocator words them. */
  async allocateIP(requested?: string): Promise<Allocation<string>> {
    const pool = this.tables.ips;
    if (requested === undefined) {
      const ip = await this.next(pool, ipRange.first, ipRange.last, ipRange.staticBand, formatIPv4, holdsIP);
      return ip === undefined ? { error: 'range is full' } : { value: ip };
    }
    const n = parseIPv4Sloppy(requested);
    if (n === undefined || n < ipRange.network || n >= ipRange.network + ipRange.size) {
      return { error: 'the provided network does not match the current range' };
    }
    if (n < ipRange.first || n > ipRange.last) return { error: `provided IP ${formatIPv4(n)} is not in the valid range` };
    const ip = formatIPv4(n);
    if (!(await this.claim(pool, ip, (svc) => holdsIP(svc, ip)))) return { error: 'provided IP is already allocated' };
    return { value: ip };
  }

  /** A node port: the requested one (checked), or a free one. */
  async allocateNodePort(requested?: number): Promise<Allocation<number>> {
    const pool = this.tables.nodePorts;
    if (requested === undefined) {
      const port = await this.next(pool, NODE_PORT_RANGE.first, NODE_PORT_RANGE.last, nodePortStaticBand, (n) => n, holdsNodePort);
      return port === undefined ? { error: 'range is full' } : { value: port };
    }
    if (requested < NODE_PORT_RANGE.first || requested > NODE_PORT_RANGE.last) {
      return { error: `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.first}-${NODE_PORT_RANGE.last}` };
    }
    if (!(await this.claim(pool, requested, (svc) => holdsNodePort(svc, requested)))) return { error: 'provided port is already allocated' };
    return { value: requested };
  }
}
