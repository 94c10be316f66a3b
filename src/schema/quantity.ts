/**
 * Resource quantities (`resource.Quantity`): parsing to an exact value, comparison, and the
 * canonical text Kubernetes stores and returns (`1024Mi` comes back as `1Gi`, `1000m` as `1`).
 * Values are kept as BigInt nano-units, rounded up like Kubernetes does below nano precision.
 */

type Format = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** A parsed quantity: its value in nano-units and the format its suffix chose. */
export interface Quantity {
  readonly nanos: bigint;
  readonly format: Format;
}

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const NANO = 10n ** 9n;
/** Kubernetes refuses more digits than this; it also keeps hostile input cheap. */
const MAX_DIGITS = 64;

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n === b > 0n ? q + 1n : q;
}

/** Parses a quantity as Kubernetes' `ParseQuantity` does; undefined when it is not one. */
export function parseQuantity(input: string | number): Quantity | undefined {
  const text = String(input).trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  if (!m) return undefined;
  const [, sign = '', whole = '', frac = '', suffix = ''] = m;
  // Go reads a missing number as zero: `.`, `+` and `Ki` are all 0.
  if (text === '') return undefined;
  if (whole.length + frac.length > MAX_DIGITS) return undefined;
  let format: Format;
  let exp10 = 0;
  let exp2 = 0;
  if (suffix in BINARY) {
    format = 'BinarySI';
    exp2 = BINARY[suffix]!;
  } else if (suffix in DECIMAL) {
    format = 'DecimalSI';
    exp10 = DECIMAL[suffix]!;
  } else if (/^[eE][+-]?\d{1,3}$/.test(suffix)) {
    format = 'DecimalExponent';
    exp10 = Number(suffix.slice(1));
  } else return undefined;
  // value = digits * 10^(exp10 - frac.length) * 2^exp2, in nano-units (times 10^9), rounded up.
  let num = BigInt(`${whole}${frac}` || '0') * 2n ** BigInt(exp2);
  let scale = exp10 - frac.length + 9;
  if (scale >= 0) num *= 10n ** BigInt(scale);
  else num = ceilDiv(num, 10n ** BigInt(-scale));
  scale = 0;
  return { nanos: sign === '-' ? -num : num, format };
}

/** Compares two quantities: negative, zero or positive. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** Kubernetes' canonical text of a quantity (`Quantity.String()`). */
export function formatQuantity(q: Quantity): string {
  let format = q.format;
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const sign = q.nanos < 0n ? '-' : '';
  if (format === 'BinarySI') {
    // Small or fractional binary values are shown in decimal, so nothing is rounded.
    if (abs < 1024n * NANO || abs % NANO !== 0n) format = 'DecimalSI';
  }
  if (abs === 0n) return '0';
  if (format === 'BinarySI') {
    let value = abs / NANO;
    let shift = 0;
    while (shift < 60 && value % 1024n === 0n) {
      value /= 1024n;
      shift += 10;
    }
    const suffix = Object.keys(BINARY).find((k) => BINARY[k] === shift) ?? '';
    return `${sign}${value}${suffix}`;
  }
  // Decimal: the largest exponent (a multiple of 3, at most 18) that leaves an integer mantissa.
  let exponent = -9;
  let mantissa = abs;
  while (exponent < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  if (format === 'DecimalExponent') return `${sign}${mantissa}${exponent === 0 ? '' : `e${exponent}`}`;
  const suffix = Object.keys(DECIMAL).find((k) => DECIMAL[k] === exponent) ?? '';
  return `${sign}${mantissa}${suffix}`;
}

/** The canonical text of a quantity given as text or number; the input itself when unparsable. */
export function canonicalQuantity(input: string | number): string | number {
  const q = parseQuantity(input);
  return q ? formatQuantity(q) : input;
}

/** Kubernetes' `ErrFormatWrong`. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Kubernetes' `ErrSuffix`. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";
/** Kubernetes' `ErrNumeric`. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';

const SUFFIX_CHARS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Why `text` is not a quantity, in Kubernetes' words, or undefined when it is one. Follows the
 * scan of `parseQuantityString` (sign, digits, optional fraction, suffix letters, optional signed
 * exponent digits), so `1ki` is a suffix error, `abc` a format error and `.` reads as zero.
 */
export function quantityParseError(text: string): string | undefined {
  if (text.length === 0) return QUANTITY_FORMAT_ERROR;
  let pos = text[0] === '+' || text[0] === '-' ? 1 : 0;
  while (isDigit(text[pos])) pos++;
  if (text[pos] === '.') {
    pos++;
    while (isDigit(text[pos])) pos++;
  }
  const suffixStart = pos;
  while (pos < text.length && SUFFIX_CHARS.includes(text[pos]!)) pos++;
  if (text[pos] === '+' || text[pos] === '-') pos++;
  while (isDigit(text[pos])) pos++;
  if (pos < text.length) return QUANTITY_FORMAT_ERROR;
  const suffix = text.slice(suffixStart);
  const known = suffix === '' || suffix in BINARY || suffix in DECIMAL || /^[eE][+-]?\d+$/.test(suffix);
  if (!known) return QUANTITY_SUFFIX_ERROR;
  return parseQuantity(text) === undefined ? QUANTITY_NUMERIC_ERROR : undefined;
}
