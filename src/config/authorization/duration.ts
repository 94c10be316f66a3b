/**
 * `metav1.Duration` as configuration files write it: Go's `time.ParseDuration` text in, Go's
 * `time.Duration.String()` out (what validation messages show: `-30s`, `1m0s`, `1.5s`).
 */
import { parseDuration } from '../../cel/values/time.js';

/** Nanoseconds of a Go duration text, or undefined when Go would refuse it. */
export function parseGoDuration(text: string): bigint | undefined {
  return parseDuration(text);
}

const SECOND = 1_000_000_000n;

/** `whole` and the fraction `rem / unit` with trailing zeros dropped (`1.5`, `2`). */
function withFraction(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const rem = value % unit;
  if (rem === 0n) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rem).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Go's `time.Duration.String()` of a number of nanoseconds. */
export function goDurationString(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  const u = nanos < 0n ? -nanos : nanos;
  if (u < 1000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${withFraction(u, 1000n)}µs`;
  if (u < SECOND) return `${sign}${withFraction(u, 1_000_000n)}ms`;
  const hours = u / (3600n * SECOND);
  const minutes = (u / (60n * SECOND)) % 60n;
  const seconds = u % (60n * SECOND);
  let out = sign;
  if (hours > 0n) out += `${hours}h`;
  if (hours > 0n || minutes > 0n) out += `${minutes}m`;
  return `${out}${withFraction(seconds, SECOND)}s`;
}

/** Milliseconds of a duration, for timers (sub-millisecond parts rounded up so a positive duration stays positive). */
export function durationMs(nanos: bigint): number {
  const ms = nanos / 1_000_000n + (nanos % 1_000_000n > 0n ? 1n : 0n);
  return Number(ms);
}
