/**
 * The agent's API server requests, counted as client-go's REST client reports them to
 * component-base (`k8s.io/component-base/metrics/prometheus/restclient`): each response's status
 * code in `rest_client_requests_total` (`<error>` when no answer came), and its latency until the
 * answer's headers in `rest_client_request_duration_seconds`, by the request's method and the
 * server's host:port.
 */
import type { MetricsRegistry } from '../../metrics/registry.js';
/** A Fetch-standard function (the agent's transport to its API server). */
type FetchLike = (request: Request) => Promise<Response>;

/** client-go's latency buckets. */
export const REST_CLIENT_LATENCY_BUCKETS: readonly number[] = Object.freeze([0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0]);

/** A Fetch function whose every request is counted into `registry`. */
export function instrumentFetch(fetch: FetchLike, registry: MetricsRegistry): FetchLike {
  const requests = registry.counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'],
  });
  const latency = registry.histogram({
    name: 'rest_client_request_duration_seconds',
    help: 'Request latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'],
    buckets: REST_CLIENT_LATENCY_BUCKETS,
  });
  return async (request) => {
    const host = new URL(request.url).host;
    const method = request.method;
    const started = performance.now();
    try {
      const response = await fetch(request);
      requests.inc({ code: String(response.status), method, host });
      return response;
    } catch (e) {
      requests.inc({ code: '<error>', method, host });
      throw e;
    } finally {
      latency.observe({ verb: method, host }, (performance.now() - started) / 1000);
    }
  };
}
