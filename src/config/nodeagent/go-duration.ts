/**
 * Go's `time.ParseDuration` with its error texts, which the node agent's flags and configuration
 * file report verbatim: `time: invalid duration "x"`, `time: missing unit in duration "1"`,
 * `time: unknown unit "d" in duration "1d"`.
 */
import { goQuote } from '../../util/go-format.js';
import { goDurationText, parseGoDuration } from '../../util/go-time.js';

/** A parsed duration in nanoseconds, or Go's error text. */
export type GoDurationResult = { readonly ok: true; readonly nanos: bigint } | { readonly ok: false; readonly error: string };

const UNITS = new Set(['ns', 'us', '\u00b5s', '\u03bcs', 'ms', 's', 'm', 'h']);
const isNumberChar = (c: string | undefined) => c !== undefined && (c === '.' || (c >= '0' && c <= '9'));

/** Which of Go's three errors a text that does not parse gets (the scan of `time.ParseDuration`). */
function errorOf(orig: string): string {
  const invalid = `time: invalid duration ${goQuote(orig)}`;
  let s = orig.replace(/^[-+]/, '');
  if (s === '') return invalid;
  while (s !== '') {
    if (!isNumberChar(s[0])) return invalid;
    const number = /^\d*(\.\d*)?/.exec(s)![0];
    if (number === '.' || number === '') return invalid;
    s = s.slice(number.length);
    let i = 0;
    while (i < s.length && !isNumberChar(s[i])) i++;
    if (i === 0) return `time: missing unit in duration ${goQuote(orig)}`;
    const unit = s.slice(0, i);
    if (!UNITS.has(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${goQuote(orig)}`;
    s = s.slice(i);
  }
  // Every part was well formed: the value overflowed.
  return invalid;
}

/** `time.ParseDuration(text)`. */
export function goParseDuration(text: string): GoDurationResult {
  const nanos = parseGoDuration(text);
  return nanos === undefined ? { ok: false, error: errorOf(text) } : { ok: true, nanos };
}

/** Nanoseconds of a duration text already known to parse (0 for one that does not). */
export function durationNanos(text: string | undefined): bigint {
  if (text === undefined) return 0n;
  return parseGoDuration(text) ?? 0n;
}

/** Go's `Duration.String()`: how a configuration shows a duration back (`1m0s`, `20s`). */
export function formatGoDuration(nanos: bigint): string {
  return goDurationText(nanos);
}

/** Milliseconds of a duration text (for timers); 0 when unset or invalid. */
export function durationMillis(text: string | undefined): number {
  return Number(durationNanos(text) / 1_000_000n);
}
