/**
 * `"...".format([args])` of cel-go's strings extension (version 1 formatter): `%s`, `%d`, `%f`,
 * `%e`, `%b`, `%x`, `%X`, `%o` and `%%`, with an optional `.N` precision.
 */
import { CelError, CelUint, Duration, ListValue, MapValue, Timestamp, TypeValue, type Result, type Value } from '../values/values.js';
import { formatDuration, formatTimestamp } from '../values/time.js';
import { formatDouble } from '../functions/stdlib.js';
import { formatType } from '../types/types.js';

function asString(v: Value): string | CelError {
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return formatDouble(v);
  if (v instanceof CelUint) return String(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Timestamp) return formatTimestamp(v.nanos);
  if (v instanceof Duration) return formatDuration(v.nanos);
  if (v instanceof TypeValue) return formatType(v.type);
  if (v instanceof ListValue) {
    const parts: string[] = [];
    for (const e of v) {
      const s = typeof e === 'string' ? JSON.stringify(e) : asString(e);
      if (s instanceof CelError) return s;
      parts.push(s);
    }
    return `[${parts.join(', ')}]`;
  }
  if (v instanceof MapValue) {
    const parts: string[] = [];
    for (const k of v.keys()) {
      const ks = typeof k === 'string' ? JSON.stringify(k) : asString(k);
      const e = v.get(k)!;
      const vs = typeof e === 'string' ? JSON.stringify(e) : asString(e);
      if (ks instanceof CelError) return ks;
      if (vs instanceof CelError) return vs;
      parts.push(`${ks}:${vs}`);
    }
    parts.sort();
    return `{${parts.join(', ')}}`;
  }
  return new CelError(
    'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps',
  );
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
    const m = /^(?:\.(\d+))?([sdfeExXbo])/.exec(text.slice(i + 1));
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
        piece =
          typeof arg === 'bigint' || arg instanceof CelUint
            ? integer(arg, 10, 'decimal')
            : new CelError('error during formatting: decimal clause can only be used on integers');
        break;
      case 'f':
      case 'e':
      case 'E': {
        const n = typeof arg === 'number' ? arg : typeof arg === 'bigint' ? Number(arg) : arg instanceof CelUint ? Number(arg.value) : undefined;
        if (n === undefined) piece = new CelError(`error during formatting: ${m[2] === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles`);
        else if (Number.isNaN(n)) piece = 'NaN';
        else if (!Number.isFinite(n)) piece = n > 0 ? 'Infinity' : '-Infinity';
        else if (m[2] === 'f') piece = n.toFixed(precision);
        else {
          const [mant, exp] = n.toExponential(precision).split('e') as [string, string];
          piece = `${mant}e${exp.startsWith('-') ? '-' : '+'}${exp.replace(/^[+-]/, '').padStart(2, '0')}`;
          if (m[2] === 'E') piece = piece.toUpperCase();
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
