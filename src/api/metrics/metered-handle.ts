/**
 * Request metrics of the engine's own door, `cluster.request` (the in-process client, the
 * built-in controllers, tools): what kube-apiserver's instrumented routes record
 * (`InstrumentRouteFunc`, `RecordLongRunning`, the max-in-flight filter's counts), recorded once
 * per request. A request the HTTP door sends carries `meteredByDoor` and is recorded there, except
 * its watch: only the engine sees when a watch ends, so every watch is timed here.
 */
import { performance } from 'node:perf_hooks';
import { ApiError } from '../../machinery/errors.js';
import { WatchChannel } from '../watch/channel.js';
import type { ApiRequest, ApiResponse, WatchEvent, WatchStream } from '../../machinery/request.js';
import type { KindRegistry, ResolvedKind } from '../../schema/registry.js';
import { isLongRunning, isReadOnly, resourceRequestLabels, type RequestLabels } from './request-labels.js';
import { removedReleaseOf, type ApiServerMetrics, type RequestKind } from './server-metrics.js';

/** The user the API server's own requests run as (`user.APIServerUser`). */
export const APISERVER_USER = 'system:apiserver';

/** What the wrapper needs to resolve a request's kind: the registry, and whether a gated kind is served. */
export interface MeteredKinds {
  readonly registry: KindRegistry;
  featureEnabled(gate: string): boolean;
}

/**
 * The served kind of a request, or undefined when no route serves it (unknown resource or
 * subresource): such requests are not recorded, as no instrumented route answers them upstream.
 */
export function servedKind(kinds: MeteredKinds, group: string, version: string, resource: string, subresource: string | undefined): ResolvedKind | undefined {
  const kind = kinds.registry.lookup({ group, version, resource });
  if (!kind) return undefined;
  const gate = kind.definition.featureGate;
  if (gate && !kinds.featureEnabled(gate)) return undefined;
  if (subresource !== undefined && !hasSubresource(kind, subresource)) return undefined;
  return kind;
}

function hasSubresource(kind: ResolvedKind, name: string): boolean {
  const d = kind.definition;
  if (name === 'status') return d.statusSubresource === true;
  if (name === 'scale') return d.scale !== undefined;
  return (
    d.actions?.[name] !== undefined ||
    d.connectSubresources?.[name] !== undefined ||
    d.partSubresources?.[name] !== undefined ||
    d.updateSubresources?.[name] !== undefined
  );
}

/** The labels of an engine request for a served kind. */
export function engineRequestLabels(kind: ResolvedKind, req: ApiRequest): RequestLabels {
  return resourceRequestLabels(kind, {
    verb: req.verb,
    version: req.resource.version,
    namespace: req.namespace,
    name: req.name,
    subresource: req.subresource,
    patchType: req.patchType,
    dryRun: req.writeOptions?.dryRun ?? req.deleteOptions?.dryRun,
  });
}

/** The HTTP code of a failure, as the error Status carries it. */
export function codeOf(e: unknown): number {
  return e instanceof ApiError ? e.code : 500;
}

/** Wraps the engine's handler so that every request through it is recorded in `metrics`. */
export function meteredHandler(
  metrics: ApiServerMetrics,
  kinds: MeteredKinds,
  handle: (req: ApiRequest) => Promise<ApiResponse>,
): (req: ApiRequest) => Promise<ApiResponse> {
  if (!metrics.enabled) return handle;
  const metered = async (req: ApiRequest): Promise<ApiResponse> => {
    const door = req.meteredByDoor === true;
    const kind = servedKind(kinds, req.resource.group, req.resource.version, req.resource.resource, req.subresource);
    if (!kind) return handle(req);
    const labels = engineRequestLabels(kind, req);
    const started = performance.now();
    const longRunning = isLongRunning(req);
    const inflight: RequestKind | undefined = door || longRunning ? undefined : isReadOnly(req.verb) ? 'readOnly' : 'mutating';
    if (inflight) metrics.startInflight(inflight);
    let res: ApiResponse;
    try {
      res = await handle(req);
    } catch (e) {
      if (inflight) metrics.endInflight(inflight);
      finish(metrics, kind, req, labels, codeOf(e), started);
      throw e;
    }
    if (inflight) metrics.endInflight(inflight);
    if (req.verb === 'watch' && isWatchStream(res.body)) {
      return { ...res, body: meteredWatch(metrics, kind, req, labels, res.body, started, door) };
    }
    finish(metrics, kind, req, labels, res.code, started);
    return res;
  };
  // A request the door counts itself goes straight through (no extra promise); only its watches are timed here.
  return (req) => (req.meteredByDoor === true && req.verb !== 'watch' ? handle(req) : metered(req));
}

function finish(metrics: ApiServerMetrics, kind: ResolvedKind, req: ApiRequest, labels: RequestLabels, code: number, started: number): void {
  metrics.recordRequest(labels, code, (performance.now() - started) / 1000);
  if (req.user.username === APISERVER_USER) metrics.recordSelfRequest(labels);
  const warning = kind.definition.deprecationWarning;
  if (warning) metrics.recordDeprecated(labels, removedReleaseOf(warning));
}

function isWatchStream(body: unknown): body is WatchStream {
  return typeof body === 'object' && body !== null && typeof (body as WatchStream).close === 'function' && Symbol.asyncIterator in body;
}

/**
 * A watch that counts the events it hands out (`apiserver_watch_events_total`) and, when it ends,
 * records the request with the watch's whole lifetime as its duration (upstream times a watch
 * until its handler returns); `apiserver_longrunning_requests` counts it while it runs.
 */
function meteredWatch(
  metrics: ApiServerMetrics,
  kind: ResolvedKind,
  req: ApiRequest,
  labels: RequestLabels,
  stream: WatchStream,
  started: number,
  door: boolean,
): WatchStream {
  const gauge = {
    verb: labels.verb,
    group: labels.group,
    version: labels.version,
    resource: labels.resource,
    subresource: labels.subresource,
    scope: labels.scope,
    component: labels.component,
  };
  const watchLabels = { group: labels.group, version: labels.version, resource: labels.resource };
  metrics.longRunning.inc(gauge);
  void stream.done.then(() => {
    metrics.longRunning.dec(gauge);
    // The watch cache closes a watcher whose client fell too far behind.
    if (stream.overflowed) metrics.terminatedWatchers.inc({ group: labels.group, resource: labels.resource });
    finish(metrics, kind, req, labels, 200, started);
  });
  // The HTTP door counts what it writes, with its size; here the series is found once per watch.
  const counted = door ? undefined : metrics.watchEvents.with(watchLabels);
  if (stream instanceof WatchChannel) {
    // The engine's own stream counts as it hands events out: no wrapper, no promise per event.
    if (counted) stream.onTake(() => counted.inc());
    return stream;
  }
  const count = (next: IteratorResult<WatchEvent>) => {
    if (!next.done) counted!.inc();
    return next;
  };
  return {
    close: () => stream.close(),
    done: stream.done,
    get overflowed() {
      return stream.overflowed;
    },
    [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
      const inner = stream[Symbol.asyncIterator]();
      return {
        // No async function: one more promise per event and watcher adds up over many watchers.
        next: counted ? () => inner.next().then(count) : () => inner.next(),
        return: inner.return ? (value?: unknown) => inner.return!(value) : undefined,
      } as AsyncIterator<WatchEvent>;
    },
  };
}
