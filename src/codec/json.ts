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

/** Finds duplicate keys in text already known to be valid JSON; iterative, so depth is no risk. */
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
      if (c === '[') pendingPath = childPath(stack[stack.length - 1]!, 0);
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.array) {
        top.index++;
        pendingPath = childPath(top, top.index);
      } else if (top) top.expectKey = true;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
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
