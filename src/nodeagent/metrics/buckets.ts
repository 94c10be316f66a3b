/** Histogram bucket boundaries as client_golang and component-base build them. */

/** client_golang's `DefBuckets`: 5 ms to 10 s, for network service latencies. */
export const DEF_BUCKETS: readonly number[] = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

/**
 * client_golang's `ExponentialBuckets(start, factor, count)`: each boundary the previous one
 * times `factor`, multiplied step by step as Go does so the floating-point values are the same.
 */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out = [start];
  for (let i = 1; i < count; i++) out.push(out[i - 1]! * factor);
  return out;
}
