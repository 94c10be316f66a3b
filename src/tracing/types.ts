/** The request tracer's API (index.ts starts one; provider.ts implements it over OpenTelemetry). */
import type { TracedRequest } from './http-attributes.js';

/**
 * One request's span.
 * @category Metrics, health and tracing
 */
export interface RequestSpan {
  /** Whether the span is sampled (and will be exported). */
  readonly sampled: boolean;
  /** Ends the span with the response's status code (and body sizes when known); later calls do nothing. */
  end(statusCode: number, sizes?: { readonly requestBytes?: number; readonly responseBytes?: number }): void;
}

/**
 * Makes the spans of API requests.
 * @category Metrics, health and tracing
 */
export interface RequestTracer {
  /** Starts the span of a request, as it arrives (after authentication, so the user's groups are known). */
  startRequest(request: TracedRequest): RequestSpan;
  /** Exports the spans still batched and stops. */
  shutdown(): Promise<void>;
}

/**
 * Options of {@link startRequestTracing}.
 * @category Metrics, health and tracing
 */
export interface RequestTracingOptions {
  /**
   * The collector's OTLP gRPC endpoint as a TracingConfiguration writes it (`host:port` or
   * `dns:///host:port`); the exporter's default (`localhost:4317`, or `OTEL_EXPORTER_OTLP_ENDPOINT`)
   * when absent.
   */
  readonly endpoint?: string;
  /** The fraction of new traces sampled, 0 to 1 (`samplingRatePerMillion / 1e6`). */
  readonly samplingFraction: number;
  /** The resource's `service.instance.id`; kube-apiserver's identity for this host by default. */
  readonly serviceInstanceId: string;
  /** The clock of span times (ms since the epoch); `Date.now` by default. */
  readonly now?: () => number;
}
