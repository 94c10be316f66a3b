/**
 * The decision of Go's `sdktrace.TraceIDRatioBased(fraction)` (go.opentelemetry.io/otel/sdk/trace
 * sampling.go), which kube-apiserver samples new traces with: a trace is sampled when the last 8
 * bytes of its id, read big-endian and shifted right by one, are below `fraction * 2^63`. The
 * OpenTelemetry JS sampler decides differently; this one makes the same trace ids sampled as a
 * real kube-apiserver would.
 */

/** Whether Go's ratio sampler samples `traceId` (32 hex digits) at `fraction` (0 to 1). */
export function goTraceIdRatioSampled(traceId: string, fraction: number): boolean {
  if (fraction >= 1) return true;
  if (!(fraction > 0)) return false;
  // uint64(fraction * (1 << 63)): the float product truncated, exactly as Go converts it.
  const upperBound = BigInt(Math.trunc(fraction * 2 ** 63));
  const x = BigInt(`0x${traceId.slice(16, 32).padStart(16, '0')}`) >> 1n;
  return x < upperBound;
}
