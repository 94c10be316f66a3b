/**
 * Reading a caller's W3C `traceparent` header as kube-apiserver's propagator does
 * (go.opentelemetry.io/otel/propagation TraceContext.Extract): four dash-separated lower-case hex
 * parts (version, trace id, parent span id, flags); version `ff` refused, version `00` with nothing
 * after its flags and no flag above 2; all-zero ids refused; only the sampled bit kept.
 */

/** The caller's span context, when its header is valid. */
export interface RemoteParent {
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /** 16 lower-case hex digits. */
  readonly spanId: string;
  /** Whether the caller sampled its trace. */
  readonly sampled: boolean;
}

/** One part of the header: exactly `n` lower-case hex digits. */
function part(parts: string[], i: number, n: number): string | undefined {
  const p = parts[i];
  return p !== undefined && p.length === n && /^[0-9a-f]*$/.test(p) ? p : undefined;
}

/** The caller's span context, or undefined for an absent or invalid header (the request then starts its own trace). */
export function parseTraceparent(header: string | undefined): RemoteParent | undefined {
  if (!header) return undefined;
  // Go cuts one part at a time: whatever follows the flags is one more part (or several).
  const [first, second, third, fourth, ...rest] = header.split('-');
  const parts = [first ?? '', second ?? '', third ?? '', fourth ?? ''];
  const version = part(parts, 0, 2);
  const traceId = part(parts, 1, 32);
  const spanId = part(parts, 2, 16);
  const flags = part(parts, 3, 2);
  if (version === undefined || traceId === undefined || spanId === undefined || flags === undefined) return undefined;
  if (parseInt(version, 16) > 254) return undefined;
  const flagBits = parseInt(flags, 16);
  if (version === '00' && (rest.length > 0 || flagBits > 2)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (flagBits & 1) === 1 };
}
