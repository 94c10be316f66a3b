/**
 * Equality and ordering of CEL values: heterogeneous numeric equality (`1 == 1.0u` is true at run
 * time), cross-type numeric ordering (enabled in Kubernetes' environment), strings in code point
 * order, bytes lexicographically.
 */
import { compareGoStrings } from '../../util/go-format.js';
import { CelUint, Duration, ListValue, MapValue, ObjectValue, OpaqueValue, OptionalValue, Timestamp, TypeValue, type Value } from './values.js';

type Num = bigint | number;

/** The numeric value of an int, uint or double; undefined for anything else. */
export function numeric(v: Value): Num | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof CelUint) return v.value;
  return undefined;
}

const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;

/**
 * Compares two numbers as cel-go does: int with uint exactly, and a double with an int or uint by
 * converting the integer to a double (so `9223372036854775807 == 9223372036854775808.0`);
 * undefined when one is NaN. `unsigned` says which bigints are uints.
 */
export function compareNumbers(a: Num, b: Num, aUnsigned = false, bUnsigned = false): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') {
    const r = compareNumbers(b, a, bUnsigned, aUnsigned);
    return r === undefined ? undefined : -r;
  }
  // a is an int or uint, b a double.
  const d = b as number;
  if (Number.isNaN(d)) return undefined;
  if (aUnsigned ? d < 0 : d < -TWO_63) return 1;
  if (d > (aUnsigned ? TWO_64 : TWO_63)) return -1;
  const x = Number(a);
  return x < d ? -1 : x > d ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Orders two values of comparable types; undefined when they are not ordered (NaN, mixed types). */
export function compareValues(a: Value, b: Value): number | undefined {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb, a instanceof CelUint, b instanceof CelUint);
  if (typeof a === 'string' && typeof b === 'string') return compareGoStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof Timestamp && b instanceof Timestamp) return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
  if (a instanceof Duration && b instanceof Duration) return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
  return undefined;
}

/** CEL equality. */
export function celEquals(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined)
    return na !== undefined && nb !== undefined && compareNumbers(na, nb, a instanceof CelUint, b instanceof CelUint) === 0;
  if (a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && compareBytes(a, b) === 0;
  if (a instanceof Timestamp) return b instanceof Timestamp && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && a.type.name === b.type.name;
  if (a instanceof OptionalValue) {
    if (!(b instanceof OptionalValue)) return false;
    if (a.value === undefined || b.value === undefined) return a.value === b.value;
    return celEquals(a.value, b.value);
  }
  if (a instanceof ListValue) {
    if (!(b instanceof ListValue) || a.size !== b.size) return false;
    const unordered = a.unorderedEquals(b);
    if (unordered !== undefined) return unordered;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
    return true;
  }
  if (a instanceof MapValue) {
    if (!(b instanceof MapValue) || a.size !== b.size) return false;
    for (const k of a.keys()) {
      const bv = b.get(k);
      if (bv === undefined || !celEquals(a.get(k)!, bv)) return false;
    }
    return true;
  }
  if (a instanceof ObjectValue) {
    if (!(b instanceof ObjectValue) || a.typeName !== b.typeName) return false;
    const an = [...a.fieldNames()];
    const bn = new Set(b.fieldNames());
    if (an.length !== bn.size) return false;
    for (const n of an) {
      const bv = b.field(n);
      if (bv === undefined || !celEquals(a.field(n)!, bv)) return false;
    }
    return true;
  }
  if (a instanceof OpaqueValue) return b instanceof OpaqueValue && a.typeName === b.typeName && a.equals(b);
  return false;
}
