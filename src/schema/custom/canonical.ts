/**
 * Canonical texts of JSON values, for hashing where Go compares values: `json.Marshal` (object
 * members sorted by key, numbers by value), as the list-type `set` check compares compound items,
 * and a typed variant for `reflect.DeepEqual` (an int64 is never equal to a float64), as
 * `uniqueItems` compares items. Iterative, so a value nested as deep as a request may be cannot
 * exhaust the stack.
 */
import { compareGoStrings } from '../../util/go-format.js';
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
