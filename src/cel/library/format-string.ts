/**
 * `"...".format([args])` of cel-go's strings extension (version 1 formatter): `%s`, `%d`, `%f`,
 * `%e`, `%b`, `%x`, `%X`, `%o` and `%%`, with an optional `.N` precision.
 */
import { CelError, CelUint, Duration, ListValue, MapValue, Timestamp, TypeValue, type Result, type Value } from '../values/values.js';
import { fixedShortest, formatDuration, formatTimestamp } from '../values/time.js';
import { formatType } from '../types/types.js';

function formatDoubleText(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? 'Infinity' : '-Infinity';
  return fixedShortest(d);
}

function asString(v: Value): string | CelError {
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return formatDoubleText(v);
  if (v instanceof CelUint) return String(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Timestamp) return formatTimestamp(v.nanos);
  if (v instanceof Duration) return formatDuration(v.nanos);
  if (v instanceof TypeValue) return formatType(v.type);
  if (v instanceof ListValue) {
    const parts: string[] = [];
    for (const e of v) {
      const s = asString(e);
      if (s instanceof CelError) return s;
      parts.push(s);
    }
    return `[${parts.join(', ')}]`;
  }
  if (v instanceof MapValue) {
    const parts: string[] = [];
    for (const k of v.keys()) {
      const ks = asString(k);
      const vs = asString(v.get(k)!);
      if (ks instanceof CelError) return ks;
      if (vs instanceof CelError) return vs;
      parts.push(`${ks}: ${vs}`);
    }
    parts.sort();
    return `{${parts.join(', ')}}`;
  }
  return new CelError(
    'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps',
  );
}

/** The exact decimal digits of a finite double and where its point goes: value = digits × 10^-scale. */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let e2: number;
  if (exp === 0) e2 = -1074;
  else {
    mant |= 1n << 52n;
    e2 = exp - 1075;
  }
  if (e2 >= 0) return { digits: mant << BigInt(e2), scale: 0 };
  return { digits: mant * 5n ** BigInt(-e2), scale: -e2 };
}

/** Go's %.Nf: exact rounding, ties to even. */
export function toFixedGo(x: number, precision: number): string {
  const { digits, scale } = exactDecimal(x);
  let rounded: bigint;
  if (scale <= precision) rounded = digits * 10n ** BigInt(precision - scale);
  else {
    const div = 10n ** BigInt(scale - precision);
    const q = digits / div;
    const r = digits % div;
    const twice = r * 2n;
    rounded = twice > div || (twice === div && q % 2n === 1n) ? q + 1n : q;
  }
  let text = rounded.toString().padStart(precision + 1, '0');
  if (precision > 0) text = `${text.slice(0, -precision)}.${text.slice(-precision)}`;
  return (x < 0 || Object.is(x, -0) ? '-' : '') + text;
}

function integer(v: Value, radix: number, clause: string): string | CelError {
  if (typeof v === 'bigint') return v.toString(radix);
  if (v instanceof CelUint) return v.value.toString(radix);
  if (typeof v === 'boolean' && radix === 2) return v ? '1' : '0';
  if ((radix === 16 && typeof v === 'string') || (radix === 16 && v instanceof Uint8Array))
    return Buffer.from(typeof v === 'string' ? Buffer.from(v, 'utf8') : v).toString('hex');
  return new CelError(`error during formatting: ${clause} clause can only be used on integers${radix === 2 ? ' and bools' : ''}`);
}

/** Formats `text` with `args`. */
export function formatValue(text: string, args: Value[]): Result {
  let out = '';
  let next = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    if (text[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    const m = /^(?:\.(\d+))?([sdfexXbo])/.exec(text.slice(i + 1));
    if (!m) return new CelError(`could not parse formatting clause: unrecognized formatting clause "${text[i + 1] ?? ''}"`);
    i += m[0].length;
    if (next >= args.length) return new CelError(`index ${next} out of range`);
    const arg = args[next++]!;
    const precision = m[1] === undefined ? 6 : Number(m[1]);
    let piece: string | CelError;
    switch (m[2]) {
      case 's':
        piece = asString(arg);
        break;
      case 'd':
        if (typeof arg === 'number' && !Number.isFinite(arg)) piece = formatDoubleText(arg);
        else if (typeof arg === 'bigint' || arg instanceof CelUint) piece = integer(arg, 10, 'decimal');
        else piece = new CelError('error during formatting: decimal clause can only be used on integers');
        break;
      case 'f':
      case 'e': {
        const n = typeof arg === 'number' ? arg : typeof arg === 'bigint' ? Number(arg) : arg instanceof CelUint ? Number(arg.value) : undefined;
        if (n === undefined) piece = new CelError(`error during formatting: ${m[2] === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles`);
        else if (Number.isNaN(n)) piece = 'NaN';
        else if (!Number.isFinite(n)) piece = n > 0 ? 'Infinity' : '-Infinity';
        else if (m[2] === 'f') piece = toFixedGo(n, precision);
        else {
          const [mant, exp] = n.toExponential(precision).split('e') as [string, string];
          piece = `${mant}e${exp.startsWith('-') ? '-' : '+'}${exp.replace(/^[+-]/, '').padStart(2, '0')}`;
        }
        break;
      }
      case 'b':
        piece = integer(arg, 2, 'binary');
        break;
      case 'o':
        piece = integer(arg, 8, 'octal');
        break;
      default:
        piece = integer(arg, 16, 'hex');
        if (m[2] === 'X' && typeof piece === 'string') piece = piece.toUpperCase();
    }
    if (piece instanceof CelError) return piece;
    out += piece;
  }
  return out;
}
