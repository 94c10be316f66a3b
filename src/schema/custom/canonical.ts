/**
 * Canonical texts of JSON values, for hashing where Go compares values: `json.Marshal` (object
 * members sorted by key, numbers by value), as the list-type `set` check compares compound items,
 * and a typed variant for `reflect.DeepEqual` (an int64 is never equal to a float64), as
 * `uniqueItems` compares items. Iterative, so a value nested as deep as a request may be cannot
 * exhaust the stack.
 */
import { GoPrinted } from '../../machinery/field-errors.js';
import { compareGoStrings, goFormatFloat } from '../../util/go-format.js';
import { goKind } from '../../util/go-value.js';

type Piece = { readonly text: string } | { readonly value: unknown };

/** The canonical text of `value`; with `typedNumbers`, an integral number and a float spell differently (`i1`, `f1.5`). */
export function canonicalText(value: unknown, typedNumbers: boolean): string {
  let out = '';
  const stack: Piece[] = [{ value }];
  while (stack.length) {
    const piece = stack.pop()!;
    if ('text' in piece) {
      out += piece.text;
      continue;
    }
    const v = piece.value;
    if (v === null || v === undefined) {
      out += 'null';
    } else if (typeof v === 'number') {
      out += typedNumbers ? (goKind(v) === 'int64' ? 'i' : 'f') + String(v) : String(v);
    } else if (typeof v === 'string' || typeof v === 'boolean') {
      out += JSON.stringify(v);
    } else if (Array.isArray(v)) {
      const parts: Piece[] = [{ text: '[' }];
      v.forEach((item, i) => {
        if (i) parts.push({ text: ',' });
        parts.push({ value: item });
      });
      parts.push({ text: ']' });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
    } else {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort(compareGoStrings);
      const parts: Piece[] = [{ text: '{' }];
      keys.forEach((k, i) => {
        parts.push({ text: (i ? ',' : '') + JSON.stringify(k) + ':' });
        parts.push({ value: o[k] });
      });
      parts.push({ text: '}' });
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
    }
  }
  return out;
}

/** Go's `json.Marshal` of a decoded JSON value: members sorted by key, `<`, `>`, `&` escaped (HTML-safe). */
export function goJsonSorted(value: unknown): string {
  return canonicalText(value, false).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * A bad value of a field error as Go prints one held in an `interface{}`: a float64 with `%v`
 * (`1e+06`), a map or slice as `json.Marshal` writes it (members sorted); anything else as is.
 */
export function goShownValue(value: unknown): unknown {
  if (typeof value === 'number') return goKind(value) === 'float64' ? new GoPrinted(goFormatFloat(value)) : value;
  if (typeof value === 'object' && value !== null && !(value instanceof GoPrinted)) return new GoPrinted(goJsonSorted(value));
  return value;
}
