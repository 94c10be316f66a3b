/**
 * The API server's request, watch and list metrics, declared once per registry with upstream's
 * names, help texts, labels and buckets (k8s.io/apiserver `pkg/endpoints/metrics/metrics.go`,
 * `pkg/storage/cacher/metrics/metrics.go`), and the few operations every door records through.
 */
import type { CounterMetric, GaugeMetric, HistogramMetric, MetricsRegistry } from '../../metrics/registry.js';
import type { RequestLabels } from './request-labels.js';

/** `apiserver_request_duration_seconds`' buckets, tuned upstream for the API call latency SLOs. */
export const REQUEST_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** `ExponentialBuckets(start, factor, count)` of client_golang. */
function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

type RequestLabelName = keyof RequestLabels;
type LabelsWithoutDryRun = Exclude<RequestLabelName, 'dry_run'>;
type WatchLabelName = 'group' | 'version' | 'resource';

/** The request kinds of `apiserver_current_inflight_requests`, as the max-in-flight filter counts them. */
export type RequestKind = 'readOnly' | 'mutating';

/**
 * The highest number in flight since the gauge was last read: upstream reports the maximum of
 * the last second; a scrape here reads the maximum since the previous scrape, then starts over
 * from what is in flight now.
 */
class Watermark {
  current = 0;
  max = 0;
  inc(): void {
    if (++this.current > this.max) this.max = this.current;
  }
  dec(): void {
    this.current--;
  }
  /** The maximum since the last take, then reset to what is in flight now. */
  take(): number {
    const max = this.max;
    this.max = this.current;
    return max;
  }
}

/**
 * What one series of requests counted since the metrics were last read: by code, and its latency
 * and answer sizes sorted into their buckets. A request costs a few additions here; prom-client
 * gets the totals when the metrics are read (its own updates cost microseconds each, more than
 * an in-process request itself).
 */
interface PendingRequests {
  readonly labels: RequestLabels;
  /** The labels with each code seen, made once per code. */
  readonly withCode: Map<number, RequestLabels & { code: string }>;
  readonly codes: Map<number, number>;
  readonly durations: Float64Array;
  durationSum: number;
  readonly sizes: Float64Array;
  sizeSum: number;
}

/** The index of the bucket `value` falls in; `bounds.length` above every bound. */
function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  return i;
}

/** What one series of lists counted since the metrics were last read. */
interface PendingLists {
  readonly group: string;
  readonly resource: string;
  readonly index: string;
  lists: number;
  fetched: number;
  returned: number;
}

const RESPONSE_SIZE_BUCKETS = exponentialBuckets(1000, 10, 7);

/** A request's labels without `dry_run`, which `apiserver_response_sizes` does not carry. */
function withoutDryRun(labels: RequestLabels): Omit<RequestLabels, 'dry_run'> {
  const { dry_run: _dryRun, ...rest } = labels;
  return rest;
}

/** The API server's request metrics in one registry. */
export class ApiServerMetrics {
  /** False when the registry counts nothing (`createCluster({ metrics: false })`): doors skip their work. */
  readonly enabled: boolean;
  /** Native histograms on: durations and sizes are observed one by one. */
  private readonly native: boolean;
  readonly requests: CounterMetric<RequestLabelName | 'code'>;
  readonly durations: HistogramMetric<RequestLabelName>;
  readonly responseSizes: HistogramMetric<LabelsWithoutDryRun>;
  readonly longRunning: GaugeMetric<LabelsWithoutDryRun>;
  readonly selfRequests: CounterMetric<'verb' | 'resource' | 'subresource'>;
  readonly deprecatedApis: GaugeMetric<'group' | 'version' | 'resource' | 'subresource' | 'removed_release'>;
  readonly watchEvents: CounterMetric<WatchLabelName>;
  readonly watchEventSizes: HistogramMetric<WatchLabelName>;
  readonly terminatedWatchers: CounterMetric<'group' | 'resource'>;
  readonly cacheLists: CounterMetric<'group' | 'index' | 'resource'>;
  readonly cacheListFetched: CounterMetric<'group' | 'index' | 'resource'>;
  readonly cacheListReturned: CounterMetric<'group' | 'resource'>;
  private readonly inflight: Readonly<Record<RequestKind, Watermark>> = { readOnly: new Watermark(), mutating: new Watermark() };
  private readonly pending = new Map<string, PendingRequests>();
  /** The same entries by their interned label set, found without building a key. */
  private readonly pendingByLabels = new WeakMap<RequestLabels, PendingRequests>();
  private readonly pendingLists = new Map<string, PendingLists>();
  /** What doors that record in batches run before each read, so that a read sees every finished request. */
  private readonly drains: Array<() => void> = [];

  constructor(readonly registry: MetricsRegistry) {
    this.enabled = registry.enabled;
    this.native = registry.nativeHistograms;
    const requestLabels: RequestLabelName[] = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
    const withoutDryRun: LabelsWithoutDryRun[] = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];
    this.requests = registry.counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      stability: 'STABLE',
      labelNames: [...requestLabels, 'code'],
    });
    this.durations = registry.histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      stability: 'STABLE',
      labelNames: requestLabels,
      buckets: REQUEST_DURATION_BUCKETS,
    });
    this.responseSizes = registry.histogram({
      name: 'apiserver_response_sizes',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      stability: 'STABLE',
      labelNames: withoutDryRun,
      buckets: RESPONSE_SIZE_BUCKETS,
    });
    this.longRunning = registry.gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      stability: 'STABLE',
      labelNames: withoutDryRun,
    });
    this.selfRequests = registry.counter({
      name: 'apiserver_selfrequest_total',
      help: 'Counter of apiserver self-requests broken out for each verb, API resource and subresource.',
      labelNames: ['verb', 'resource', 'subresource'],
    });
    this.deprecatedApis = registry.gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      stability: 'STABLE',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
    });
    const inflightGauge = registry.gauge<'request_kind'>({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      stability: 'STABLE',
      labelNames: ['request_kind'],
    });
    if (this.enabled) {
      registry.onCollect(() => this.flush());
      registry.onCollect(() => {
        inflightGauge.set({ request_kind: 'readOnly' }, this.inflight.readOnly.take());
        inflightGauge.set({ request_kind: 'mutating' }, this.inflight.mutating.take());
      });
    }
    this.watchEvents = registry.counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'resource'],
    });
    this.watchEventSizes = registry.histogram({
      name: 'apiserver_watch_events_sizes',
      help: 'Watch event size distribution in bytes',
      labelNames: ['group', 'version', 'resource'],
      buckets: exponentialBuckets(1024, 2, 8),
    });
    this.terminatedWatchers = registry.counter({
      name: 'apiserver_terminated_watchers_total',
      help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
      labelNames: ['group', 'resource'],
    });
    this.cacheLists = registry.counter({
      name: 'apiserver_cache_list_total',
      help: 'Number of LIST requests served from watch cache',
      labelNames: ['group', 'index', 'resource'],
    });
    this.cacheListFetched = registry.counter({
      name: 'apiserver_cache_list_fetched_objects_total',
      help: 'Number of objects read from watch cache in the course of serving a LIST request',
      labelNames: ['group', 'index', 'resource'],
    });
    this.cacheListReturned = registry.counter({
      name: 'apiserver_cache_list_returned_objects_total',
      help: 'Number of objects returned for a LIST request from watch cache',
      labelNames: ['group', 'resource'],
    });
  }

  /** A request starts executing (not for long-running ones, which the max-in-flight filter leaves out). */
  startInflight(kind: RequestKind): void {
    this.inflight[kind].inc();
  }

  /** A request counted by {@link startInflight} ended. */
  endInflight(kind: RequestKind): void {
    this.inflight[kind].dec();
  }

  /**
   * One finished request (`MonitorRequest`): its count by code, its latency, and for reads (GET
   * and LIST) the size of its answer when the door knows it.
   */
  recordRequest(labels: RequestLabels, code: number, seconds: number, responseBytes?: number): void {
    if (!this.enabled) return;
    // Label sets are interned (resourceRequestLabels): most requests find their series by identity.
    let p = this.pendingByLabels.get(labels);
    if (!p) {
      const key = `${labels.verb}\u0000${labels.dry_run}\u0000${labels.group}\u0000${labels.version}\u0000${labels.resource}\u0000${labels.subresource}\u0000${labels.scope}\u0000${labels.component}`;
      p = this.pending.get(key);
      if (!p) {
        p = {
          labels,
          withCode: new Map(),
          codes: new Map(),
          durations: new Float64Array(REQUEST_DURATION_BUCKETS.length + 1),
          durationSum: 0,
          sizes: new Float64Array(RESPONSE_SIZE_BUCKETS.length + 1),
          sizeSum: 0,
        };
        this.pending.set(key, p);
      }
      if (Object.isFrozen(labels)) this.pendingByLabels.set(labels, p);
    }
    p.codes.set(code, (p.codes.get(code) ?? 0) + 1);
    const sized = responseBytes !== undefined && (labels.verb === 'GET' || labels.verb === 'LIST');
    if (this.native) {
      // Native buckets need each value: observed at once rather than counted per bucket.
      this.durations.observe(labels, seconds);
      if (sized) this.responseSizes.observe(withoutDryRun(labels), responseBytes);
      return;
    }
    p.durations[bucketOf(REQUEST_DURATION_BUCKETS, seconds)]! += 1;
    p.durationSum += seconds;
    if (sized) {
      p.sizes[bucketOf(RESPONSE_SIZE_BUCKETS, responseBytes)]! += 1;
      p.sizeSum += responseBytes;
    }
  }

  /** Runs `drain` before every read of the metrics: a door's batch of finished requests, recorded then. */
  beforeFlush(drain: () => void): void {
    this.drains.push(drain);
  }

  /** Hands what was counted since the last read over to the registry's metrics. */
  private flush(): void {
    for (const drain of this.drains) drain();
    for (const p of this.pending.values()) {
      for (const [code, n] of p.codes) {
        let labels = p.withCode.get(code);
        if (!labels) {
          labels = { ...p.labels, code: String(code) };
          p.withCode.set(code, labels);
        }
        this.requests.inc(labels, n);
      }
      p.codes.clear();
      this.durations.observeCounted(p.labels, p.durations, p.durationSum);
      p.durations.fill(0);
      p.durationSum = 0;
      this.responseSizes.observeCounted(withoutDryRun(p.labels), p.sizes, p.sizeSum);
      p.sizes.fill(0);
      p.sizeSum = 0;
    }
    for (const l of this.pendingLists.values()) {
      if (l.lists === 0) continue;
      this.cacheLists.inc({ group: l.group, index: l.index, resource: l.resource }, l.lists);
      this.cacheListFetched.inc({ group: l.group, index: l.index, resource: l.resource }, l.fetched);
      this.cacheListReturned.inc({ group: l.group, resource: l.resource }, l.returned);
      l.lists = l.fetched = l.returned = 0;
    }
  }

  /** A request by the API server itself (`system:apiserver`: memkube's built-in controllers). */
  recordSelfRequest(labels: RequestLabels): void {
    this.selfRequests.inc({ verb: labels.verb, resource: labels.resource, subresource: labels.subresource });
  }

  /** A request for a deprecated API version. */
  recordDeprecated(labels: RequestLabels, removedRelease: string): void {
    this.deprecatedApis.set(
      { group: labels.group, version: labels.version, resource: labels.resource, subresource: labels.subresource, removed_release: removedRelease },
      1,
    );
  }

  /** One list served: how many objects it read and how many it returned, and the index it used ("" for none). */
  recordList(group: string, resource: string, index: string, fetched: number, returned: number): void {
    if (!this.enabled) return;
    const key = `${group}\u0000${resource}\u0000${index}`;
    let l = this.pendingLists.get(key);
    if (!l) {
      l = { group, resource, index, lists: 0, fetched: 0, returned: 0 };
      this.pendingLists.set(key, l);
    }
    l.lists++;
    l.fetched += fetched;
    l.returned += returned;
  }
}

const byRegistry = new WeakMap<MetricsRegistry, ApiServerMetrics>();

/** The API server's metrics of a registry, declared on first use (every module of a cluster shares them). */
export function apiServerMetrics(registry: MetricsRegistry): ApiServerMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    m = new ApiServerMetrics(registry);
    byRegistry.set(registry, m);
  }
  return m;
}

/** `removed_release` of a deprecated kind: the `<major>.<minor>` its warning says it goes away in, or "". */
export function removedReleaseOf(deprecationWarning: string): string {
  return /unavailable in v(\d+\.\d+)\+/.exec(deprecationWarning)?.[1] ?? '';
}
