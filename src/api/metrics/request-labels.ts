/**
 * The labels the API server's request metrics carry, derived as k8s.io/apiserver's
 * `endpoints/metrics` package derives them (`CleanScope`, `CanonicalVerb`, `CleanVerb`,
 * `cleanVerb`, `cleanDryRun`): every value comes from a fixed set or from the served kind, never
 * from free text a client chose, so the number of series stays bounded.
 */
import type { ResolvedKind } from '../../schema/registry.js';
import type { PatchType, Verb } from '../../machinery/request.js';

/** The `component` label of every request the API server itself serves. */
export const APISERVER_COMPONENT = 'apiserver';

/** The labels shared by `apiserver_request_total`, `apiserver_request_duration_seconds` and friends. */
export interface RequestLabels {
  readonly verb: string;
  readonly dry_run: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly scope: string;
  readonly component: string;
}

/** What the labels of a resource request are derived from, whatever door it came through. */
export interface ResourceRequestShape {
  readonly verb: Verb;
  readonly version: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  readonly patchType?: PatchType;
  /** The request's dryRun values, as given (query or options). */
  readonly dryRun?: readonly string[];
}

/** The subresources upstream reports as CONNECT (`validConnectRequests`). */
const CONNECT_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

/** Subresources whose requests are long-running (kube-apiserver's `BasicLongRunningRequestCheck`). */
const LONG_RUNNING_SUBRESOURCES: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

const VERB_LABEL: Readonly<Record<Verb, string>> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};

/**
 * `CleanScope`: a named object or a create is `resource`, else a namespace's collection is
 * `namespace`, else `cluster`.
 */
export function scopeLabel(shape: ResourceRequestShape): 'resource' | 'namespace' | 'cluster' {
  if (shape.name || shape.verb === 'create') return 'resource';
  if (shape.namespace) return 'namespace';
  return 'cluster';
}

/** The reported verb: LIST vs GET, WATCH, APPLY for apply patches, CONNECT for the streaming subresources. */
export function verbLabel(shape: ResourceRequestShape): string {
  if (shape.subresource !== undefined && CONNECT_SUBRESOURCES.has(shape.subresource)) return 'CONNECT';
  if (shape.verb === 'patch' && shape.patchType === 'apply') return 'APPLY';
  return VERB_LABEL[shape.verb] ?? 'other';
}

/**
 * `cleanDryRun`: "" without dryRun, the sorted distinct values when every one is valid (`All`
 * is the only valid one), `invalid` otherwise.
 */
export function dryRunLabel(values: readonly string[] | undefined): string {
  if (!values || values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

/** Whether a request is long-running: a watch, or a streaming subresource (logs, exec, proxy...). */
export function isLongRunning(shape: Pick<ResourceRequestShape, 'verb' | 'subresource'>): boolean {
  return shape.verb === 'watch' || (shape.subresource !== undefined && isLongRunningSubresource(shape.subresource));
}

/** Whether requests for a subresource stream (logs, exec, attach, port forwarding, proxies). */
export function isLongRunningSubresource(subresource: string): boolean {
  return LONG_RUNNING_SUBRESOURCES.has(subresource);
}

/** Whether a request only reads (the max-in-flight filter's `readOnly` kind): get, list and watch. */
export function isReadOnly(verb: Verb): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

/**
 * The labels of a request for a served kind. Group and resource are the kind's own (never the
 * spelling a client used), version the one asked for, which the kind serves.
 */
export function resourceRequestLabels(kind: ResolvedKind, shape: ResourceRequestShape): RequestLabels {
  const verb = verbLabel(shape);
  const dryRun = dryRunLabel(shape.dryRun);
  const subresource = shape.subresource ?? '';
  const scope = scopeLabel(shape);
  // One frozen label set per kind and shape, so that the counters find their series by identity;
  // found by version, subresource and a small index, with no key string made per request.
  let byVersion = internedLabels.get(kind);
  if (!byVersion) internedLabels.set(kind, (byVersion = new Map()));
  let bySubresource = byVersion.get(shape.version);
  // The versions of a kind are few; the cap only guards against a caller inventing versions.
  if (!bySubresource && byVersion.size < 64) byVersion.set(shape.version, (bySubresource = new Map()));
  let slots = bySubresource?.get(subresource);
  if (!slots && bySubresource && bySubresource.size < 64) bySubresource.set(subresource, (slots = []));
  const slot = (VERB_SLOTS.get(verb) ?? 0) * 9 + DRY_RUN_SLOTS[dryRun]! * 3 + SCOPE_SLOTS[scope];
  let labels = slots?.[slot];
  if (!labels) {
    labels = Object.freeze({
      verb,
      dry_run: dryRun,
      group: kind.group,
      version: shape.version,
      resource: kind.definition.plural,
      subresource,
      scope,
      component: APISERVER_COMPONENT,
    });
    if (slots) slots[slot] = labels;
  }
  return labels;
}

/** Interned label sets of a kind: by version, by subresource, then by verb, dry run and scope (`slot`). */
const internedLabels = new WeakMap<ResolvedKind, Map<string, Map<string, RequestLabels[]>>>();
const VERB_SLOTS: ReadonlyMap<string, number> = new Map(['other', 'CONNECT', 'APPLY', ...Object.values(VERB_LABEL)].map((v, i) => [v, i]));
const DRY_RUN_SLOTS: Readonly<Record<string, number>> = { '': 0, All: 1, invalid: 2 };
const SCOPE_SLOTS: Readonly<Record<ReturnType<typeof scopeLabel>, number>> = { resource: 0, namespace: 1, cluster: 2 };

/**
 * The labels of a non-resource request upstream instruments (the health endpoints, aggregated
 * discovery): no group, version or resource; the path goes in `subresource`, a fixed path of the
 * server's own, never one a client made up.
 */
export function nonResourceRequestLabels(path: string, component: string): RequestLabels {
  return { verb: 'GET', dry_run: '', group: '', version: '', resource: '', subresource: path, scope: '', component };
}
