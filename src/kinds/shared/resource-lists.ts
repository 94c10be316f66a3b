/**
 * Resource quantities as the core kinds decode and default them (Pod, Node): the exact decode
 * error Kubernetes gives for a malformed quantity, the text a quantity is stored and returned as
 * (Go keeps the original text when it already was canonical, `Quantity.s`), and
 * `SetDefaults_ResourceList` (values rounded up to milli precision). Values and canonical text come
 * from `src/schema/quantity.ts`.
 */
import { formatQuantity, parseQuantity, type Quantity } from '../../schema/quantity.js';

/** `resource.ErrFormatWrong`. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** `resource.ErrNumeric`. */
const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
/** `resource.ErrSuffix`. */
const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const DECIMAL_SUFFIXES: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = 'eEinumkKMGTP';
const INT64_MAX = 2n ** 63n - 1n;

/** The pieces Go's `parseQuantityString` splits a quantity into. */
interface QuantityParts {
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Go's `parseQuantityString`, a linear scan: the digits before and after the dot, and the suffix. */
function splitQuantity(str: string): QuantityParts | undefined {
  let pos = 0;
  const end = str.length;
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { num: '0', denom: '', suffix: '' };
  let start = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  const num = str.slice(start, pos) || '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    start = pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(start, pos);
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return undefined;
  return { num, denom, suffix: str.slice(suffixStart) };
}

/** The base-10 (or base-2) exponent and format of a suffix, as Go's suffixer interprets it. */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number } | undefined {
  if (suffix in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix]! };
  if (suffix in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[suffix]! };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const value = BigInt(suffix.slice(1));
    if (value > INT64_MAX || value < -INT64_MAX - 1n) return undefined;
    return { base: 10, exponent: Number(value) };
  }
  return undefined;
}

/** A quantity read from a request: its value, or the decode error Kubernetes reports for it. */
export type QuantityReading =
  | { readonly ok: true; readonly quantity: Quantity; readonly text: string; readonly scale: number | undefined }
  | { readonly ok: false; readonly error: string };

/**
 * Reads a quantity as Go's `Quantity.UnmarshalJSON` does. `text` is what Kubernetes would write
 * back: the input itself when Go cached it (already canonical-looking), else the canonical form.
 * `scale` is the decimal scale of Go's int64 fast path (undefined when Go used its decimal path).
 */
export function readQuantity(input: string | number): QuantityReading {
  const str = String(input).trim();
  if (str.length === 0) return { ok: false, error: QUANTITY_FORMAT_ERROR };
  if (str === '0') return { ok: true, quantity: { nanos: 0n, format: 'DecimalSI' }, text: '0', scale: 0 };
  const parts = splitQuantity(str);
  if (!parts) return { ok: false, error: QUANTITY_FORMAT_ERROR };
  const suffix = interpretSuffix(parts.suffix);
  if (!suffix) return { ok: false, error: QUANTITY_SUFFIX_ERROR };
  const parsed = parseQuantity(str);
  // Digits but no number at all (".", "+.") are zero to Go; anything else `quantity.js` refuses is
  // out of the range memkube keeps exact (hundreds of digits, huge exponents).
  const quantity = parsed ?? (/^[+-]?\.?$/.test(str.replace(/[eEinumkKMGTP].*$/, '')) ? { nanos: 0n, format: 'DecimalSI' as const } : undefined);
  if (!quantity) return { ok: false, error: QUANTITY_NUMERIC_ERROR };
  const cache = cachedScale(parts, suffix);
  const text = cache.cached ? str : formatQuantity(quantity);
  return { ok: true, quantity, text, scale: cache.scale };
}

/**
 * Whether Go's `ParseQuantity` keeps the input text (its int64 fast path plus the "already
 * canonical" test), and the scale of that fast path.
 */
function cachedScale(parts: QuantityParts, suffix: { base: 2 | 10; exponent: number }): { cached: boolean; scale: number | undefined } {
  const { num, denom } = parts;
  const shifted = num + denom;
  if (suffix.base === 10) {
    const precision = 18 - (num.length + denom.length);
    const scale = suffix.exponent - denom.length;
    if (precision < 0 || scale < -9) return { cached: false, scale: undefined };
    return { cached: scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0', scale };
  }
  if (denom.length !== 0) return { cached: false, scale: undefined };
  const precision = 15 - num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
  if (precision < 0) return { cached: false, scale: undefined };
  const value = BigInt(shifted);
  if (value * 2n ** BigInt(suffix.exponent) > INT64_MAX) return { cached: false, scale: undefined };
  return { cached: suffix.exponent % 10 === 0 && (value & 7n) !== 0n, scale: 0 };
}

/** `Quantity.RoundUp(-3)`: rounds away from zero to whole milli-units. */
export function roundUpToMilli(q: Quantity): Quantity {
  const unit = 1_000_000n;
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  if (abs % unit === 0n) return q;
  const rounded = (abs / unit + 1n) * unit;
  return { nanos: q.nanos < 0n ? -rounded : rounded, format: q.format };
}

/** A value that could not be read as a quantity, with Go's message. */
export class QuantityDecodeError extends Error {}

/**
 * Rewrites one quantity field in place to the text Kubernetes stores. With `roundToMilli`
 * (`SetDefaults_ResourceList`) the value is rounded up to milli-units first. Throws
 * {@link QuantityDecodeError} when the value is not a quantity.
 */
export function normalizeQuantity(input: string | number, roundToMilli: boolean): string {
  const reading = readQuantity(input);
  if (!reading.ok) throw new QuantityDecodeError(reading.error);
  if (!roundToMilli) return reading.text;
  // Go keeps the cached text when its int64 scale already is milli or coarser.
  if (reading.scale !== undefined && reading.scale >= -3) return reading.text;
  const rounded = roundUpToMilli(reading.quantity);
  return rounded.nanos === reading.quantity.nanos && reading.scale !== undefined ? reading.text : formatQuantity(rounded);
}

/** Normalizes every value of a resource list in place (see {@link normalizeQuantity}). */
export function normalizeResourceList(list: Record<string, string | number> | undefined, roundToMilli = true): void {
  if (!list) return;
  for (const [name, value] of Object.entries(list)) list[name] = normalizeQuantity(value, roundToMilli);
}

/** The value of an already-normalized quantity field; undefined when it is not a quantity. */
export function quantityValue(input: string | number | undefined): Quantity | undefined {
  if (input === undefined) return undefined;
  const reading = readQuantity(input);
  return reading.ok ? reading.quantity : undefined;
}

/** Go's `Quantity.String()` of a value. */
export function quantityText(q: Quantity): string {
  return formatQuantity(q);
}

/** Go's `Quantity.Value()`: the value rounded up (away from zero) to an integer. */
export function quantityIntegerValue(q: Quantity): bigint {
  const unit = 1_000_000_000n;
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const whole = abs / unit + (abs % unit === 0n ? 0n : 1n);
  return q.nanos < 0n ? -whole : whole;
}
