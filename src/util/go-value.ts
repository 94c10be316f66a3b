/**
 * How a decoded JSON value looks to Go, for code that must behave as Kubernetes does byte for
 * byte: its dynamic type (`map[string]interface{}`, `[]interface{}`, `int64`, `float64`, ...),
 * Go's `==` on `interface{}` values (which panics on maps and slices) and `reflect.DeepEqual`.
 *
 * Kubernetes decodes patch bodies with `sigs.k8s.io/json`'s `UnmarshalCaseSensitivePreserveInts`
 * and converts stored objects with `runtime.DefaultUnstructuredConverter`, so integral numbers
 * are `int64` and the rest `float64`. A JavaScript number cannot tell `1` from `1.0`; we classify
 * integral numbers below 2^63 as `int64`, everything else as `float64`, except where the JSON
 * text is known (util/json-raw.ts): there a number written with a `.` or an exponent is `float64`
 * whatever its value ({@link goMemberKind}), as `PreserveInts` decodes it.
 */
import { jsonEqual } from './json-equal.js';
import { isFloatLiteral, rawTextOf } from './json-raw.js';

/** A JSON object as decoded by `JSON.parse` (own enumerable keys only). */
export type JsonObject = Record<string, unknown>;

/** The dynamic Go type of a decoded JSON value. */
export type GoKind = 'nil' | 'string' | 'int64' | 'float64' | 'bool' | 'map' | 'slice';

/** Thrown where the Go code would panic (the API server answers 500 with a plain-text body). */
export class GoPanic extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoPanic';
  }
}

const INT64_LIMIT = 2 ** 63;

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Go dynamic type of a JSON value. */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < INT64_LIMIT ? 'int64' : 'float64';
    default:
      return Array.isArray(v) ? 'slice' : 'map';
  }
}

/**
 * The Go dynamic type of the value `holder[slot]` of a decoded document: a number the JSON text
 * wrote as a float literal (`80.0`, `1e2`) is `float64` even when integral.
 */
export function goMemberKind(holder: object, slot: string | number, v: unknown): GoKind {
  if (typeof v === 'number') {
    const raw = rawTextOf(holder, slot, v);
    if (raw !== undefined) return isFloatLiteral(raw) ? 'float64' : 'int64';
  }
  return goKind(v);
}

/** `reflect.TypeOf(v).String()` for a decoded JSON value; `%!s(<nil>)` for nil, as `%s` prints it. */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    default:
      return goKind(v);
  }
}

/**
 * Go's `==` on two `interface{}` values holding decoded JSON: false when the dynamic types
 * differ, a runtime panic when both hold the same uncomparable type (map or slice). The kinds
 * default to the values' own ({@link goKind}); pass {@link goMemberKind}s for a document's members.
 */
export function goInterfaceEqual(a: unknown, b: unknown, ka: GoKind = goKind(a), kb: GoKind = goKind(b)): boolean {
  if (ka !== kb) return false;
  if (ka === 'map' || ka === 'slice') throw new GoPanic(`runtime error: comparing uncomparable type ${goTypeName(a)}`);
  if (ka === 'nil') return true;
  return a === b;
}

/**
 * `reflect.DeepEqual` on decoded JSON values read from Go maps: {@link jsonEqual}, except that
 * `undefined` (what JavaScript reads for a missing member, where Go's `m[k]` reads nil) equals
 * `null`. Numbers compare by value, see the module note.
 */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  return jsonEqual(a ?? null, b ?? null);
}

/**
 * A key that is equal for two scalars exactly when Go's `==` says they are equal (so it can index
 * a `Map`). `undefined` for maps and slices, which Go cannot hash or compare. `kind` defaults to
 * the value's own ({@link goKind}); pass {@link goMemberKind} for a document's member.
 */
export function scalarKey(v: unknown, kind: GoKind = goKind(v)): string | undefined {
  switch (kind) {
    case 'nil':
      return 'n';
    case 'string':
      return 's' + (v as string);
    case 'bool':
      return v ? 'T' : 'F';
    case 'int64':
      return 'i' + String(v);
    case 'float64':
      // String(-0) is "0": Go's float64 -0 == 0 too.
      return 'f' + String(v);
    default:
      return undefined;
  }
}

/** {@link scalarKey} of the member `holder[slot]` (its Go type as {@link goMemberKind} sees it). */
export function memberScalarKey(holder: JsonObject, slot: string): string | undefined {
  const v = holder[slot];
  return scalarKey(v, goMemberKind(holder, slot, v));
}
