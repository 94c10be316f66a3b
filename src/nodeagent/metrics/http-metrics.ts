/**
 * The node agent server's request metrics as kubelet's `Server.ServeHTTP` records them
 * (`pkg/kubelet/server/server.go`, `pkg/kubelet/server/metrics/metrics.go`): every request counted
 * in `kubelet_http_requests_total`, timed in `kubelet_http_requests_duration_seconds` and held in
 * `kubelet_http_inflight_requests` while it runs, by method, path bucket, server type and whether
 * it is long-running. The labels never carry the caller's text: an unknown method is `other`, a
 * path outside the server's registered buckets is `other`.
 */
import type { ServerResponse } from 'node:http';
import type { MetricsRegistry } from '../../metrics/registry.js';
import { DEF_BUCKETS } from './buckets.js';

/** `readwrite` for the secured port, `readonly` for the read-only one. */
export type ServerType = 'readwrite' | 'readonly';

/** kubelet's `metricsMethodBuckets`. */
const METHOD_BUCKETS = new Set(['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'TRACE', 'CONNECT']);

/**
 * kubelet's `longRunningRequestPathMap`. Its `portforward` never equals the `portForward` bucket,
 * so port forwarding is not counted as long-running, as in kubelet.
 */
const LONG_RUNNING_BUCKETS = new Set(['exec', 'attach', 'portforward', 'debug']);

/** The buckets every kubelet server registers (healthz, pods, stats, the metrics paths). */
const COMMON_BUCKETS = ['healthz', 'pods', 'stats', 'metrics', 'metrics/cadvisor', 'metrics/probes', 'metrics/resource'];

/**
 * The path buckets of a server, as kubelet's handler installation adds them: the debugging
 * handlers' paths, `configz` and (with the gate) `checkpoint` when debugging handlers are served,
 * else the paths that answer "Debug endpoints are disabled.".
 */
export function metricPathBuckets(debuggingHandlers: boolean, checkpoint: boolean): ReadonlySet<string> {
  const buckets = new Set(COMMON_BUCKETS);
  const debugging = debuggingHandlers
    ? ['logs', 'debug', 'run', 'exec', 'attach', 'portForward', 'containerLogs', 'configz', 'runningpods', ...(checkpoint ? ['checkpoint'] : [])]
    : ['run', 'exec', 'attach', 'portForward', 'containerLogs', 'runningpods', 'pprof', 'logs'];
  for (const b of debugging) buckets.add(b);
  return buckets;
}

/** kubelet's `getURLRootPath`: `metrics/<x>` for the metrics paths, else the first segment. */
export function urlRootPath(path: string): string {
  const parts = path.replace(/^\//, '').split('/');
  if (parts[0] === 'metrics' && parts.length > 1) return `metrics/${parts[1]!}`;
  return parts[0]!;
}

/** The labels of one request. */
export interface HttpRequestLabels {
  readonly method: string;
  readonly path: string;
  readonly server_type: ServerType;
  readonly long_running: 'true' | 'false';
}

/** The labels kubelet gives a request of `method` to `path` (the URL's path, before cleaning). */
export function httpRequestLabels(method: string, path: string, buckets: ReadonlySet<string>, serverType: ServerType): HttpRequestLabels {
  const root = urlRootPath(path);
  const bucket = buckets.has(root) ? root : 'other';
  return {
    method: METHOD_BUCKETS.has(method) ? method : 'other',
    path: bucket,
    server_type: serverType,
    long_running: LONG_RUNNING_BUCKETS.has(bucket) ? 'true' : 'false',
  };
}

const LABEL_NAMES = ['method', 'path', 'server_type', 'long_running'] as const;

/** Records requests of one server into `registry`. */
export function httpRequestRecorder(registry: MetricsRegistry): (labels: HttpRequestLabels, res: ServerResponse) => void {
  const total = registry.counter({
    name: 'kubelet_http_requests_total',
    help: 'Number of the http requests received since the server started',
    labelNames: LABEL_NAMES,
  });
  const duration = registry.histogram({
    name: 'kubelet_http_requests_duration_seconds',
    help: 'Duration in seconds to serve http requests',
    labelNames: LABEL_NAMES,
    buckets: DEF_BUCKETS,
  });
  const inflight = registry.gauge({ name: 'kubelet_http_inflight_requests', help: 'Number of the inflight http requests', labelNames: LABEL_NAMES });
  return (labels, res) => {
    const started = performance.now();
    total.inc(labels);
    inflight.inc(labels);
    // 'close' comes once the answer is written or the connection went away: the handler is done.
    res.once('close', () => {
      inflight.dec(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    });
  };
}
