/**
 * `metav1.Duration` as configuration files write it: Go's `time.ParseDuration` text in, Go's
 * `time.Duration.String()` out (what validation messages show: `-30s`, `1m0s`, `1.5s`).
 */
import { goDurationText, parseGoDuration } from '../../util/go-time.js';

export { parseGoDuration };

/** Go's `time.Duration.String()` of a number of nanoseconds. */
export const goDurationString = goDurationText;

/** Milliseconds of a duration, for timers (sub-millisecond parts rounded up so a positive duration stays positive). */
export function durationMs(nanos: bigint): number {
  const ms = nanos / 1_000_000n + (nanos % 1_000_000n > 0n ? 1n : 0n);
  return Number(ms);
}
