/**
 * How client-go's `JSONPath.PrintResults` writes values: maps and slices as `json.Marshal` does
 * (keys in Go's sorted order, HTML-safe escaping), everything else as `fmt.Fprint` does (strings
 * raw, `1.5`, `1e+21`, `true`), a nil held by a map or slice as `null` and the zero
 * `reflect.Value` as `<no value>`; the values of one result list separated by one space.
 */
import { goFormatFloat, goJsonString } from '../go-format.js';
import { JsonPathError } from './errors.js';
import { GoNumber, kindOf, sortedKeys, sprintValue } from './values.js';

/** Go's `json.Marshal` of a number held in an `interface{}` (int64 or float64). */
function marshalNumber(n: number): string {
  if (!Number.isFinite(n)) throw new JsonPathError(`json: unsupported value: ${goFormatFloat(n)}`);
  // encoding/json writes floats in 'f' form, in 'e' form below 1e-6 or from 1e21 on (with a
  // one-digit exponent kept as is), which is exactly what JavaScript writes; -0 is an int64 0 here.
  return Object.is(n, -0) ? '0' : JSON.stringify(n);
}

type Piece = string | { value: unknown };

/**
 * Go's `json.Marshal` of a decoded JSON value: map keys sorted byte-wise, strings HTML-safe.
 * Iterative, so a document of any depth marshals in constant stack.
 */
export function goMarshal(value: unknown): string {
  let out = '';
  const stack: Piece[] = [{ value }];
  while (stack.length) {
    const p = stack.pop()!;
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = p.value;
    if (v === null || v === undefined) {
      out += 'null';
    } else if (typeof v === 'string') {
      out += goJsonString(v);
    } else if (typeof v === 'number') {
      out += marshalNumber(v);
    } else if (typeof v === 'boolean') {
      out += v ? 'true' : 'false';
    } else if (v instanceof GoNumber) {
      out += v.goType === 'float64' ? marshalNumber(v.value) : String(v.value);
    } else if (Array.isArray(v)) {
      out += '[';
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push(',');
      }
    } else {
      const o = v as Record<string, unknown>;
      const keys = sortedKeys(o).filter((k) => o[k] !== undefined);
      out += '{';
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ value: o[k] });
        stack.push(goJsonString(k) + ':');
        if (i > 0) stack.push(',');
      }
    }
  }
  return out;
}

/**
 * One value as `PrintResults` writes it: `null` for a nil held by a map or slice, `<no value>`
 * for the zero `reflect.Value` (`undefined`).
 */
export function printFound(value: unknown): string {
  switch (kindOf(value)) {
    case 'invalid':
      return '<no value>';
    case 'nil':
      return 'null';
    case 'map':
    case 'slice':
      return goMarshal(value);
    default:
      return sprintValue(value);
  }
}
