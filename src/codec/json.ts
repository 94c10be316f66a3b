/**
 * JSON text to a value, reporting duplicate object keys the way Kubernetes' strict decoder names
 * them (`metadata.name`, `spec.containers[0].name`, `metadata.labels.app`). The value keeps the
 * last of duplicate keys, as Go's decoder does.
 */

/** A parsed JSON document. */
export interface ParsedJson {
  value: unknown;
  /** Field paths of duplicate keys, in document order, each once. */
  duplicateFields: string[];
}

/** Thrown for text that is not JSON. */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

interface Frame {
  array: boolean;
  path: string;
  keys: Set<string>;
  index: number;
  expectKey: boolean;
}

function childPath(frame: Frame, key: string | number): string {
  if (typeof key === 'number') return `${frame.path}[${key}]`;
  return frame.path ? `${frame.path}.${key}` : key;
}

/** Go's `encoding/json` (and so Kubernetes' decoders) refuses documents nested deeper than this. */
export const MAX_JSON_DEPTH = 10_000;

/**
 * The index of the quote closing the string that opens at `open` (valid JSON): the first quote
 * after it not escaped by an odd run of backslashes. Jumps with indexOf rather than stepping
 * through every character of long values.
 */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    let backslashes = 0;
    for (let b = q - 1; b > open && text.charCodeAt(b) === 92; b--) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

/**
 * Finds duplicate keys in text already known to be valid JSON; iterative, so depth is no risk.
 * Nesting deeper than {@link MAX_JSON_DEPTH} is a {@link JsonSyntaxError}, as in Go.
 */
function findDuplicates(text: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const stack: Frame[] = [];
  let pendingPath = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      const path = top ? pendingPath : '';
      stack.push({ array: c === '[', path, keys: new Set(), index: 0, expectKey: c === '{' });
      if (stack.length > MAX_JSON_DEPTH) throw new JsonSyntaxError(`invalid character '${c}' exceeded max depth`);
      if (c === '[') pendingPath = childPath(stack[stack.length - 1]!, 0);
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.array) {
        top.index++;
        pendingPath = childPath(top, top.index);
      } else if (top) top.expectKey = true;
    } else if (c === '"') {
      const j = closingQuote(text, i);
      if (top && !top.array && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        const path = childPath(top, key);
        if (top.keys.has(key) && !seen.has(path)) {
          seen.add(path);
          found.push(path);
        }
        top.keys.add(key);
        top.expectKey = false;
        pendingPath = path;
      }
      i = j;
    }
  }
  return found;
}

/** Parses JSON text; throws {@link JsonSyntaxError} for anything that is not JSON. */
export function parseJson(text: string): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new JsonSyntaxError((e as Error).message);
  }
  return { value, duplicateFields: findDuplicates(text) };
}
