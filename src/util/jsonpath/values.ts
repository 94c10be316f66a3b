/**
 * The values a JSONPath evaluation handles, as client-go's `reflect.Value`s behave:
 *
 * - a decoded JSON value: an object is a `map[string]interface{}`, an array an `[]interface{}`,
 *   an integral number below 2^63 an `int64` and any other number a `float64` (what Kubernetes
 *   sees in a stored object, util/go-value.ts), a string, a bool; `null` is a nil `interface{}`
 *   held by a map or a slice;
 * - `undefined`: the zero `reflect.Value` (client-go's "no value"), which is what the root is
 *   when the data is nil, and what a range iteration over a nil item starts from;
 * - a {@link GoNumber}: a number JSON cannot spell with its Go type, an `int` or `float64`
 *   literal of the template, or a `uint8` byte of a string (`.*` over a string yields its bytes).
 */
import { compareGoStrings, goFormatFloat } from '../go-format.js';
import { goKind, goTypeName } from '../go-value.js';
import { goPrintValue } from '../go-print.js';

/** A number of a Go type that a JSON value cannot carry: a template literal or a string's byte. */
export class GoNumber {
  /**
   * @param goType `int` (an integer literal), `float64` (a float literal, `2.0` included) or
   *   `uint8` (a byte of a string's UTF-8).
   * @param value the number.
   */
  constructor(
    readonly goType: 'int' | 'float64' | 'uint8',
    readonly value: number,
  ) {}

  /** How `fmt` prints it (`%v`). */
  toString(): string {
    return this.goType === 'float64' ? goFormatFloat(this.value) : String(this.value);
  }
}

/** The `reflect.Kind` of a value after client-go's `Indirect`, as the evaluator tells them apart. */
export type ValueKind = 'invalid' | 'nil' | 'map' | 'slice' | 'string' | 'bool' | 'int' | 'int64' | 'uint8' | 'float64';

/** The kind of a value the evaluator holds (see the module note). */
export function kindOf(v: unknown): ValueKind {
  if (v === undefined) return 'invalid';
  if (v instanceof GoNumber) return v.goType;
  return goKind(v);
}

/** `reflect.Value.Type().String()` of a non-nil value. */
export function typeName(v: unknown): string {
  return v instanceof GoNumber ? v.goType : goTypeName(v);
}

/** fmt's `%v` of a `reflect.Value` (the zero Value prints `<invalid reflect.Value>`). */
export function formatReflectValue(v: unknown): string {
  if (v === undefined) return '<invalid reflect.Value>';
  return sprintValue(v);
}

/** fmt's `%v` of the value an `interface{}` holds (`map[a:1]`, `<nil>`, `1e+21`). */
export function sprintValue(v: unknown): string {
  return v instanceof GoNumber ? v.toString() : goPrintValue(v);
}

/**
 * The keys of a decoded JSON object in the order the evaluator visits them. Go ranges over a
 * map in random order; sorted (as `json.Marshal` and `fmt` print maps) keeps output stable.
 */
export function sortedKeys(o: object): string[] {
  return Object.keys(o).sort(compareGoStrings);
}

/** The members or items of a container, `null` for a JSON-invalid `undefined` inside one. */
export function memberValue(v: unknown): unknown {
  return v === undefined ? null : v;
}

/** A string's UTF-8 bytes as Go's `reflect.Value.Index` on a string yields them. */
export function stringBytes(s: string): GoNumber[] {
  return Array.from(Buffer.from(s, 'utf8'), (b) => new GoNumber('uint8', b));
}

// text/template's comparison functions (client-go's third_party/forked/golang/template/funcs.go).

const BAD_COMPARISON_TYPE = 'invalid type for comparison';
const BAD_COMPARISON = 'incompatible types for comparison';

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string';

function basicKind(v: unknown): BasicKind | undefined {
  switch (kindOf(v)) {
    case 'bool':
      return 'bool';
    case 'int':
    case 'int64':
      return 'int';
    case 'uint8':
      return 'uint';
    case 'float64':
      return 'float';
    case 'string':
      return 'string';
    default:
      return undefined;
  }
}

function num(v: unknown): number {
  return v instanceof GoNumber ? v.value : (v as number);
}

/** A comparison's answer, or the error text/template gives. */
export type Comparison = { ok: true; value: boolean } | { ok: false; error: string };

const yes = (value: boolean): Comparison => ({ ok: true, value });
const fail = (error: string): Comparison => ({ ok: false, error });

function equal(a: unknown, b: unknown): Comparison {
  const k1 = basicKind(a);
  if (!k1) return fail(BAD_COMPARISON_TYPE);
  const k2 = basicKind(b);
  if (!k2) return fail(BAD_COMPARISON_TYPE);
  if (k1 !== k2) {
    // Integers compare across signedness.
    if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) return yes(num(a) === num(b));
    return fail(BAD_COMPARISON);
  }
  if (k1 === 'string') return yes(a === b);
  if (k1 === 'bool') return yes(a === b);
  return yes(num(a) === num(b));
}

function less(a: unknown, b: unknown): Comparison {
  const k1 = basicKind(a);
  if (!k1) return fail(BAD_COMPARISON_TYPE);
  const k2 = basicKind(b);
  if (!k2) return fail(BAD_COMPARISON_TYPE);
  if (k1 !== k2) {
    if ((k1 === 'int' && k2 === 'uint') || (k1 === 'uint' && k2 === 'int')) return yes(num(a) < num(b));
    return fail(BAD_COMPARISON);
  }
  if (k1 === 'bool') return fail(BAD_COMPARISON_TYPE);
  if (k1 === 'string') return yes(compareGoStrings(a as string, b as string) < 0);
  return yes(num(a) < num(b));
}

function lessEqual(a: unknown, b: unknown): Comparison {
  const lt = less(a, b);
  if (!lt.ok || lt.value) return lt;
  return equal(a, b);
}

function not(c: Comparison): Comparison {
  return c.ok ? yes(!c.value) : c;
}

/**
 * A filter's comparison as text/template's `eq`, `ne`, `lt`, `le`, `gt`, `ge` work it out: only
 * basic values compare, an int64 never compares with a float64 (`incompatible types for
 * comparison`), a map, a slice or nil fails with `invalid type for comparison`. `undefined`
 * for an operator client-go does not know.
 */
export function compare(operator: string, a: unknown, b: unknown): Comparison | undefined {
  switch (operator) {
    case '<':
      return less(a, b);
    case '>': {
      const le = lessEqual(a, b);
      return le.ok ? yes(!le.value) : fail(le.error);
    }
    case '==':
      return equal(a, b);
    case '!=':
      return not(equal(a, b));
    case '<=':
      return lessEqual(a, b);
    case '>=':
      return not(less(a, b));
    default:
      return undefined;
  }
}
