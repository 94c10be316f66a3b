/**
 * API discovery: the legacy documents (`/api`, `/apis`, `/apis/<group>`, `/api/v1`,
 * `/apis/<group>/<version>`) and aggregated discovery (`apidiscovery.k8s.io/v2`
 * APIGroupDiscoveryList), which kubectl asks for first.
 *
 * The aggregated documents are built as kube-apiserver's discovery manager builds them
 * (k8s.io/apiserver pkg/endpoints/discovery/aggregated): once, on the first request after the
 * served kinds changed, then answered from the cache; each build counts in
 * `aggregator_discovery_aggregation_count_total`.
 */
import type { Verb } from '../machinery/request.js';
import type { CounterMetric, MetricsRegistry } from '../metrics/registry.js';
import { connectVerbOf } from '../schema/define-kind.js';
import type { KindRegistry, ResolvedKind } from '../schema/registry.js';
import { byVersionPriority } from '../schema/version-priority.js';

const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The verbs a kind serves, sorted as Kubernetes lists them. */
export function verbsOf(kind: ResolvedKind): string[] {
  if (kind.definition.review) return ['create'];
  const unsupported = new Set(kind.definition.unsupportedVerbs ?? []);
  return ALL_VERBS.filter((v) => !unsupported.has(v));
}

/** A subresource as discovery lists it; `responseKind` when it answers another kind than its parent (Scale). */
export interface SubresourceInfo {
  name: string;
  verbs: string[];
  responseKind?: { group: string; version: string; kind: string };
  /** The kind named, in the resource's group and version, when not the resource's own (`NodeProxyOptions`). */
  kind?: string;
}

/** The subresources of a kind, with their verbs. */
export function subresourcesOf(kind: ResolvedKind): SubresourceInfo[] {
  const out: SubresourceInfo[] = [];
  if (kind.definition.scale)
    out.push({ name: 'scale', verbs: ['get', 'patch', 'update'], responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } });
  if (kind.definition.statusSubresource) out.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
  for (const name of Object.keys(kind.definition.updateSubresources ?? {})) out.push({ name, verbs: ['update'] });
  for (const name of Object.keys(kind.definition.partSubresources ?? {})) out.push({ name, verbs: ['get', 'patch', 'update'] });
  for (const [name, action] of Object.entries(kind.definition.actions ?? {})) out.push({ name, verbs: ['create'], responseKind: { ...action.kind } });
  for (const [name, sub] of Object.entries(kind.definition.connectSubresources ?? {})) {
    const verbs = new Set(sub.methods.map(connectVerbOf).filter((v): v is Verb => v !== undefined));
    out.push({ name, verbs: [...verbs].sort(), ...(sub.discoveryKind ? { kind: sub.discoveryKind } : {}) });
  }
  // Kubernetes lists a resource's subresources by name.
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface GroupVersions {
  name: string;
  versions: string[];
}

/** The groups served (without the core group), each with its versions, preferred first. */
export function groupsOf(registry: KindRegistry): GroupVersions[] {
  const groups = new Map<string, string[]>();
  for (const kind of registry.kinds()) {
    if (!kind.group) continue;
    const versions = groups.get(kind.group) ?? [];
    for (const v of kind.versions) if (!versions.includes(v.name)) versions.push(v.name);
    groups.set(kind.group, versions);
  }
  return [...groups].map(([name, versions]) => ({ name, versions: versions.sort(compareVersions) }));
}

/** Kubernetes' version priority (GA before beta before alpha, higher numbers first): a sort comparator. */
export function compareVersions(a: string, b: string): number {
  return byVersionPriority(a, b);
}

function kindsIn(registry: KindRegistry, group: string, version: string): ResolvedKind[] {
  return registry.kinds().filter((k) => k.group === group && k.versions.some((v) => v.name === version));
}

/** `/api`: APIVersions. */
export function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(g: GroupVersions): Record<string, unknown> {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

/** `/apis`: APIGroupList. */
export function apiGroupList(registry: KindRegistry): unknown {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groupsOf(registry).map(apiGroup) };
}

/** `/apis/<group>`: APIGroup, or undefined when the group is not served. */
export function apiGroupDoc(registry: KindRegistry, group: string): unknown {
  const g = groupsOf(registry).find((x) => x.name === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) } : undefined;
}

/** `/api/v1`, `/apis/<group>/<version>`: APIResourceList, or undefined when not served. */
export function apiResourceList(registry: KindRegistry, group: string, version: string): unknown {
  const kinds = kindsIn(registry, group, version);
  if (kinds.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const k of kinds) {
    const d = k.definition;
    resources.push(
      compact({
        name: d.plural,
        singularName: d.singular,
        namespaced: k.namespaced,
        kind: d.kind,
        verbs: verbsOf(k),
        shortNames: d.shortNames.length ? [...d.shortNames] : undefined,
        categories: d.categories.length ? [...d.categories] : undefined,
      }),
    );
    for (const sub of subresourcesOf(k)) {
      const other = sub.responseKind ? { group: sub.responseKind.group, version: sub.responseKind.version } : {};
      resources.push({
        name: `${d.plural}/${sub.name}`,
        singularName: '',
        namespaced: k.namespaced,
        ...other,
        kind: sub.responseKind?.kind ?? sub.kind ?? d.kind,
        verbs: sub.verbs,
      });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** The Content-Type of aggregated discovery v2. */
export const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
/** The Content-Type of aggregated discovery v2beta1. */
export const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** Which aggregated discovery version an Accept header asks for first, if any. */
export function aggregatedVersionAsked(accept: string | null): 'v2' | 'v2beta1' | undefined {
  for (const clause of (accept ?? '').split(',')) {
    const parts = clause.split(';').map((p) => p.trim().toLowerCase());
    const params = new Map(parts.slice(1).map((p) => p.split('=') as [string, string]));
    if (params.get('as') === 'apigroupdiscoverylist' && params.get('g') === 'apidiscovery.k8s.io') {
      const v = params.get('v');
      if (v === 'v2' || v === 'v2beta1') return v;
    }
    if (parts[0] === 'application/json' && !params.has('as')) return undefined;
  }
  return undefined;
}

function discoveryGroup(registry: KindRegistry, name: string, versions: string[]): unknown {
  return {
    metadata: name ? { name, creationTimestamp: null } : { creationTimestamp: null },
    versions: versions.map((version) => ({
      version,
      resources: kindsIn(registry, name, version).map((k) => {
        const d = k.definition;
        const responseKind = { group: name, version, kind: d.kind };
        return compact({
          resource: d.plural,
          responseKind,
          scope: k.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: d.singular,
          verbs: verbsOf(k),
          shortNames: d.shortNames.length ? [...d.shortNames] : undefined,
          categories: d.categories.length ? [...d.categories] : undefined,
          subresources: subresourcesOf(k).length
            ? subresourcesOf(k).map((s) => ({
                subresource: s.name,
                responseKind: s.responseKind ?? (s.kind ? { ...responseKind, kind: s.kind } : responseKind),
                verbs: s.verbs,
              }))
            : undefined,
        });
      }),
      freshness: 'Current',
    })),
  };
}

/** The aggregated documents' groups of one registry, built for the kinds of one registry revision. */
interface AggregatedCache {
  revision: number;
  core?: unknown[];
  apis?: unknown[];
}

const aggregatedCaches = new WeakMap<KindRegistry, AggregatedCache>();
const aggregationCounters = new WeakMap<KindRegistry, CounterMetric>();

/**
 * Counts the builds of `registry`'s aggregated discovery documents in `metrics`
 * (`aggregator_discovery_aggregation_count_total`, as kube-apiserver counts its rebuilds).
 */
export function countDiscoveryAggregations(registry: KindRegistry, metrics: MetricsRegistry): void {
  aggregationCounters.set(
    registry,
    metrics.counter({ name: 'aggregator_discovery_aggregation_count_total', help: 'Counter of number of times discovery was aggregated', stability: 'ALPHA' }),
  );
}

/** Aggregated discovery: `/api` (the core group) or `/apis` (every other group). */
export function aggregatedDiscovery(registry: KindRegistry, core: boolean, version: 'v2' | 'v2beta1'): unknown {
  let cache = aggregatedCaches.get(registry);
  // The registry's revision moves whenever a kind starts or stops being served.
  if (!cache || cache.revision !== registry.revision) aggregatedCaches.set(registry, (cache = { revision: registry.revision }));
  const slot = core ? 'core' : 'apis';
  let items = cache[slot];
  if (!items) {
    items = core ? [discoveryGroup(registry, '', ['v1'])] : groupsOf(registry).map((g) => discoveryGroup(registry, g.name, g.versions));
    cache[slot] = items;
    aggregationCounters.get(registry)?.inc();
  }
  // v2 and v2beta1 share the groups (served from one cache upstream too); only the wrapper differs.
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
