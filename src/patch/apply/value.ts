/**
 * Plain JSON values as structured-merge-diff's `value` package sees them: its total order
 * (`value.Compare`), how it prints a value in a path (`value.ToString`) and how jsoniter writes
 * one into a FieldsV1 key (`k:{...}`, `v:...`). Its equality (`value.Equals`) is `jsonEqual`
 * (util/json-equal.ts).
 *
 * JSON numbers are JavaScript numbers here; an integral number plays the part of Go's int64 and
 * any other number of float64. SMD compares ints and floats numerically, so the difference only
 * shows when a float is printed.
 */
import { compareGoStrings, goFormatFloat, goJsonString, goQuote } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** The own keys of an object whose value is not `undefined` (JSON has no `undefined`). */
export function ownKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o);
  // Every write walks its object through here: filter (a second array) only when there is something to drop.
  for (let i = 0; i < keys.length; i++) if (o[keys[i]!] === undefined) return keys.filter((k) => o[k] !== undefined);
  return keys;
}

/**
 * True when `o` has an own, defined property `key` (util/own.ts `hasOwn` counts an own
 * `undefined` member too; structured-merge-diff sees no such member).
 */
export function hasDefinedOwn(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isJsonObject(v)) return 4;
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
        else if (!hasDefinedOwn(ma, k)) c = 1;
        else if (!hasDefinedOwn(mb, k)) c = -1;
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

/** SMD's `value.ToString`, used when a path is printed (`[name="c"]`, `[=5]`). */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFormatFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  if (isJsonObject(v)) {
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
  if (isJsonObject(v)) {
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
  if (isJsonObject(v)) {
    return `{${ownKeys(v)
      .map((k) => `${goJsonString(k)}:${goJsonInOrder(v[k])}`)
      .join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJsonInOrder).join(',')}]`;
  return goJsonValue(v);
}
