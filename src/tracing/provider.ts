/**
 * The OpenTelemetry side of request tracing, loaded (with the SDK and the OTLP gRPC exporter) only
 * when tracing is configured: a tracer provider as k8s.io/component-base/tracing NewProvider makes
 * one (spans batched to an insecure OTLP gRPC endpoint, sampled by ParentBased over Go's trace-id
 * ratio sampler, the resource `service.name=apiserver` and `service.instance.id`), and the spans
 * of kube-apiserver's tracing filter.
 */
import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SamplingDecision,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { goTraceIdRatioSampled } from './go-ratio-sampler.js';
import { followsCallerTrace, requestAttributes, requestSpanName, responseAttributes, responseStatus, type TracedRequest } from './http-attributes.js';
import type { RequestSpan, RequestTracer, RequestTracingOptions } from './types.js';
import { parseTraceparent } from './traceparent.js';

/** The instrumentation scope kube-apiserver's request spans carry (otelhttp's). */
const SCOPE_NAME = 'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp';

/** Go's `TraceIDRatioBased` as a sampler of the JS SDK (`NeverSample` at 0, `AlwaysSample` at 1). */
class GoTraceIdRatioSampler implements Sampler {
  constructor(private readonly fraction: number) {}

  shouldSample(_context: Context, traceId: string): SamplingResult {
    return { decision: goTraceIdRatioSampled(traceId, this.fraction) ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }

  toString(): string {
    return `TraceIDRatioBased{${this.fraction}}`;
  }
}

/** The caller's trace context from its `traceparent` (and `tracestate`) headers, or none. */
function callerContext(request: TracedRequest): Context | undefined {
  const parent = parseTraceparent(request.header('traceparent'));
  if (!parent) return undefined;
  const state = request.header('tracestate');
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
    ...(state ? { traceState: createTraceState(state) } : {}),
  });
}

/** Builds the tracer; `exporterUrl` is the OTLP endpoint as the JS exporter takes it (undefined: its default). */
export function createOtelRequestTracer(options: RequestTracingOptions, exporterUrl: string | undefined): RequestTracer {
  const exporter = new OTLPTraceExporter(exporterUrl ? { url: exporterUrl } : {});
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'apiserver', [ATTR_SERVICE_INSTANCE_ID]: options.serviceInstanceId }),
    sampler: new ParentBasedSampler({ root: new GoTraceIdRatioSampler(options.samplingFraction) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer(SCOPE_NAME);
  const now = options.now ?? Date.now;

  return {
    startRequest(request: TracedRequest): RequestSpan {
      const caller = callerContext(request);
      const follow = followsCallerTrace(request.groups);
      // Anyone but a privileged caller starts a new trace, linked to the caller's (a public endpoint).
      const links: Link[] = caller && !follow ? [{ context: trace.getSpanContext(caller)! }] : [];
      const span = tracer.startSpan(
        requestSpanName(request),
        { kind: SpanKind.SERVER, attributes: requestAttributes(request) as Attributes, links, root: !follow, startTime: request.startTime ?? now() },
        follow && caller ? caller : context.active(),
      );
      let ended = false;
      return {
        sampled: span.isRecording(),
        end(statusCode, sizes) {
          if (ended) return;
          ended = true;
          span.setAttributes(responseAttributes(statusCode, sizes));
          const status = responseStatus(statusCode);
          if (status.error) span.setStatus({ code: SpanStatusCode.ERROR, ...(status.message ? { message: status.message } : {}) });
          span.end(now());
        },
      };
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
