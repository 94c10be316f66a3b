/**
 * The values of a LoggingConfiguration as a logger uses them: `flushFrequency` (a Go duration or
 * nanoseconds) in milliseconds, `infoBufferSize` (a quantity) in bytes.
 */
import { parseQuantity } from '../../schema/quantity.js';
import { isGoDuration } from '../../util/go-time.js';

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go duration string (`1m30s`, `-5s`, `0`); undefined when Go's `time.ParseDuration` refuses it. */
export function goDurationMs(text: string): number | undefined {
  if (!isGoDuration(text)) return undefined;
  const sign = text.startsWith('-') ? -1 : 1;
  let total = 0;
  for (const m of text.replace(/^[-+]/, '').matchAll(/(\d*\.?\d*)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return sign * total;
}

/** `flushFrequency` in milliseconds (a string is a Go duration, a number nanoseconds); undefined when invalid. */
export function flushFrequencyMs(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? goDurationMs(value) : value / 1e6;
}

/** `infoBufferSize` in bytes, rounded up as `Quantity.Value()` does; undefined when not a quantity. */
export function infoBufferBytes(value: string | number | undefined): number | undefined {
  if (value === undefined) return 0;
  const q = parseQuantity(value);
  if (!q) return undefined;
  const nano = 1_000_000_000n;
  const whole = q.nanos / nano + (q.nanos % nano > 0n ? 1n : 0n);
  return Number(whole);
}
