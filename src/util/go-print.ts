/**
 * How Go's `fmt` prints a decoded JSON value, for messages that must match the Kubernetes API
 * server byte for byte: `%v` (`map[a:1 b:[x y]]`, `<nil>`, `1e+06`) and `%s` (`%!s(int64=5)`).
 * Iterative, so a deep document cannot exhaust the stack.
 */
import { compareGoStrings, goFormatFloat } from './go-format.js';
import { goKind, type JsonObject } from './go-value.js';

function goNumber(n: number): string {
  return goKind(n) === 'int64' ? BigInt(n).toString() : goFormatFloat(n);
}

function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareGoStrings);
}

type Piece = string | { v: unknown; depth: number };

/** fmt's `%v` (and `%+v`) of a decoded JSON value: `map[a:1 b:[x y]]`, `<nil>`, `1e+06`. */
export function goPrintValue(value: unknown): string {
  return goPrint(value, 'v');
}

/** fmt's `%s` of a decoded JSON value: strings as is, others as `%!s(int64=5)`. */
export function goPrintString(value: unknown): string {
  if (value === null || value === undefined) return '%!s(<nil>)';
  return goPrint(value, 's');
}

function goPrint(value: unknown, verb: 'v' | 's'): string {
  let out = '';
  const stack: Piece[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const p = stack.pop()!;
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = p.v;
    switch (goKind(v)) {
      case 'nil':
        out += '<nil>';
        break;
      case 'string':
        out += v as string;
        break;
      case 'bool':
        out += verb === 'v' ? String(v) : `%!s(bool=${String(v)})`;
        break;
      case 'int64':
      case 'float64':
        out += verb === 'v' ? goNumber(v as number) : `%!s(${goKind(v)}=${goNumber(v as number)})`;
        break;
      case 'slice': {
        const arr = v as unknown[];
        const parts: Piece[] = ['['];
        arr.forEach((item, i) => {
          if (i) parts.push(' ');
          parts.push({ v: item, depth: p.depth + 1 });
        });
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
      case 'map': {
        const o = v as JsonObject;
        const parts: Piece[] = ['map['];
        sortedKeys(o).forEach((k, i) => {
          if (i) parts.push(' ');
          parts.push(k + ':');
          parts.push({ v: o[k], depth: p.depth + 1 });
        });
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
    }
  }
  return out;
}
