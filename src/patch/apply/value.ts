/**
 * Plain JSON values as structured-merge-diff's `value` package sees them: its total order
 * (`value.Compare`), its equality (`value.Equals`), how it prints a value in a path
 * (`value.ToString`) and how jsoniter writes one into a FieldsV1 key (`k:{...}`, `v:...`).
 *
 * JSON numbers are JavaScript numbers here; an integral number plays the part of Go's int64 and
 * any other number of float64. SMD compares ints and floats numerically, so the difference only
 * shows when a float is printed.
 */
import { compareGoStrings, goJsonString, goQuote } from '../../util/go-format.js';
import { setOwn } from '../../util/own.js';

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The own keys of an object whose value is not `undefined` (JSON has no `undefined`). */
export function ownKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

/** Own property lookup that never reaches the prototype (`__proto__`, `constructor`, ...). */
export function getOwn(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** True when `o` has an own, defined property `key`. */
export function hasOwn(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

export { setOwn } from '../../util/own.js';

/** A deep copy of a JSON value (own keys only, `undefined` members dropped). */
export function cloneJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneJson(x)) as T;
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of ownKeys(v)) setOwn(out, k, cloneJson(v[k]));
    return out as T;
  }
  return v;
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5; // null
}

/** SMD's `value.Compare`: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4: {
      // value.MapCompare: walk the union of keys in lexical order.
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const ka = ownKeys(ma);
      const kb = ownKeys(mb);
      if (ka.length === 0 && kb.length === 0) return 0;
      const keys = [...new Set([...ka, ...kb])].sort(compareGoStrings);
      let i = 0;
      for (const k of keys) {
        let c: number;
        if (i === ka.length) c = -1;
        else if (i === kb.length) c = 1;
        else if (!hasOwn(ma, k)) c = 1;
        else if (!hasOwn(mb, k)) c = -1;
        else c = compareValues(ma[k], mb[k]);
        i++;
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return 0;
  }
}

/** SMD's `value.Equals`: deep equality, numbers compared numerically. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => valuesEqual(x, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = ownKeys(a);
    if (ka.length !== ownKeys(b).length) return false;
    return ka.every((k) => hasOwn(b, k) && valuesEqual(a[k], b[k]));
  }
  return false;
}

/** Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, `%e` form when the exponent is < -4 or >= 6). */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant = '0', e = '0'] = f.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mant}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(f);
}

/** SMD's `value.ToString`, used when a path is printed (`[name="c"]`, `[=5]`). */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFormatFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (isObject(v)) {
    return ownKeys(v)
      .sort(compareGoStrings)
      .map((k) => `${k}=${valueToString(v[k])}`)
      .join('');
  }
  return '{{undefined}}';
}

/**
 * A value as jsoniter (ConfigCompatibleWithStandardLibrary) writes it: Go's `encoding/json`
 * output, HTML-safe, map keys sorted.
 */
export function goJsonValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJsonValue).join(',')}]`;
  if (isObject(v)) {
    const keys = ownKeys(v).sort(compareGoStrings);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJsonValue(v[k])}`).join(',')}}`;
  }
  return 'null';
}

/**
 * A value as Go's `encoding/json` writes a decoded `interface{}` in document order (the raw
 * bytes a client most likely sent): like {@link goJsonValue} but keys keep their order.
 */
export function goJsonInOrder(v: unknown): string {
  if (isObject(v)) {
    return `{${ownKeys(v)
      .map((k) => `${goJsonString(k)}:${goJsonInOrder(v[k])}`)
      .join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJsonInOrder).join(',')}]`;
  return goJsonValue(v);
}
