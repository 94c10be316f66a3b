/**
 * JSON text to a value, reporting duplicate object keys the way Kubernetes' strict decoder names
 * them (`metadata.name`, `spec.containers[0].name`, `metadata.labels.app`). The value keeps the
 * last of duplicate keys, as Go's decoder does. On request it also records the raw text of
 * scalars that `JSON.stringify` would spell differently (`80.0`, `"\u0061"`), beside the value
 * (util/json-raw.ts), for the patch engines that must see what Go sees.
 */
import { clearRawTexts, setRawText } from '../util/json-raw.js';

/**
 * A parsed JSON document.
 * @category Utilities
 */
export interface ParsedJson {
  value: unknown;
  /** Field paths of duplicate keys, in document order, each once. */
  duplicateFields: string[];
}

/**
 * Thrown for text that is not JSON.
 * @category Utilities
 */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

interface Frame {
  array: boolean;
  /** The frame holding this one, and this one's slot in it (undefined at the root). */
  parent: Frame | undefined;
  slot: string | number;
  /** The field path of this container, written when first asked for (only a duplicate asks). */
  path: string | undefined;
  /** The member names seen so far (objects): a list while short, a set past {@link FEW_KEYS}; none for arrays. */
  keys: string[] | Set<string> | undefined;
  index: number;
  expectKey: boolean;
  /** The member name the next value belongs to (objects). */
  key: string;
  /** The parsed container this frame is, when raw texts are recorded (undefined when not tracked). */
  holder: object | undefined;
}

/**
 * Options of {@link parseJson}.
 * @category Utilities
 */
export interface ParseJsonOptions {
  /** Record the raw text of scalars `JSON.stringify` would write differently (see util/json-raw.ts). */
  rawScalars?: boolean;
}

function pathOf(frame: Frame): string {
  if (frame.path === undefined) frame.path = frame.parent ? childPath(frame.parent, frame.slot) : '';
  return frame.path;
}

function childPath(frame: Frame, key: string | number): string {
  const path = pathOf(frame);
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Objects with up to this many members look for a repeated one in a list, which costs less than a Set. */
const FEW_KEYS = 16;

/** Whether `key` was seen in the object of `frame`; records it. */
function seenBefore(frame: Frame, key: string): boolean {
  const keys = frame.keys;
  if (keys === undefined) {
    frame.keys = [key];
    return false;
  }
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return true;
    if (keys.length < FEW_KEYS) keys.push(key);
    else frame.keys = new Set([...keys, key]);
    return false;
  }
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
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

/** `parent[slot]` when it is a container of the kind the text opens (`[` or `{`). */
function childHolder(parent: object | undefined, slot: string | number, array: boolean): object | undefined {
  if (parent === undefined) return undefined;
  const child = typeof slot === 'number' ? (parent as unknown[])[slot] : Object.hasOwn(parent, slot) ? (parent as Record<string, unknown>)[slot] : undefined;
  return typeof child === 'object' && child !== null && Array.isArray(child) === array ? child : undefined;
}

/** Forgets the raw texts recorded under `value` (an earlier occurrence of a duplicate key wrote them). */
function clearSubtree(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    clearRawTexts(v);
    for (const c of Array.isArray(v) ? v : Object.values(v)) if (typeof c === 'object' && c !== null) stack.push(c);
  }
}

const PLAIN_INTEGER = /^(?:-?[1-9][0-9]{0,14}|0)$/;

/** The raw text of a number literal when `JSON.stringify` would spell its value differently. */
function unusualNumber(token: string): string | undefined {
  if (PLAIN_INTEGER.test(token)) return undefined;
  return JSON.stringify(Number(token)) === token ? undefined : token;
}

/**
 * Finds duplicate keys in text already known to be valid JSON; iterative, so depth is no risk.
 * Nesting deeper than {@link MAX_JSON_DEPTH} is a {@link JsonSyntaxError}, as in Go. With `root`
 * given, records the raw text of unusual scalars on the containers of `root` (the parsed text).
 */
function findDuplicates(text: string, root?: { value: unknown }): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const stack: Frame[] = [];
  const recording = root !== undefined;
  // The next backslash at or after the scan position (-1: none left), to tell escaped strings cheaply.
  let backslash = text.indexOf('\\');
  const escapedBefore = (i: number, j: number): boolean => {
    if (backslash !== -1 && backslash < i) backslash = text.indexOf('\\', i);
    return backslash !== -1 && backslash < j;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      const array = c === '[';
      let holder: object | undefined;
      if (recording) {
        if (!top) holder = typeof root.value === 'object' && root.value !== null && Array.isArray(root.value) === array ? root.value : undefined;
        else holder = childHolder(top.holder, top.array ? top.index : top.key, array);
      }
      const slot = top ? (top.array ? top.index : top.key) : '';
      stack.push({ array, parent: top, slot, path: top ? undefined : '', keys: undefined, index: 0, expectKey: !array, key: '', holder });
      if (stack.length > MAX_JSON_DEPTH) throw new JsonSyntaxError(`invalid character '${c}' exceeded max depth`);
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    } else if (c === '"') {
      const j = closingQuote(text, i);
      if (top && !top.array && top.expectKey) {
        // Most keys hold no escape: their text is the key.
        const key = escapedBefore(i, j) ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (seenBefore(top, key)) {
          const path = childPath(top, key);
          if (!seen.has(path)) {
            seen.add(path);
            found.push(path);
          }
          // The last occurrence is the value: forget what the earlier ones recorded.
          if (top.holder) {
            setRawText(top.holder, key, undefined);
            if (Object.hasOwn(top.holder, key)) clearSubtree((top.holder as Record<string, unknown>)[key]);
          }
        }
        top.expectKey = false;
        top.key = key;
      } else if (top?.holder && escapedBefore(i, j)) {
        const raw = text.slice(i, j + 1);
        if (JSON.stringify(JSON.parse(raw)) !== raw) setRawText(top.holder, top.array ? top.index : top.key, raw);
      }
      i = j;
    } else if (top?.holder && (c === '-' || (c >= '0' && c <= '9'))) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j]!)) j++;
      const raw = unusualNumber(text.slice(i, j));
      if (raw !== undefined) setRawText(top.holder, top.array ? top.index : top.key, raw);
      i = j - 1;
    }
  }
  return found;
}

/**
 * Parses JSON text; throws {@link JsonSyntaxError} for anything that is not JSON.
 * @category Utilities
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new JsonSyntaxError((e as Error).message);
  }
  return { value, duplicateFields: findDuplicates(text, options.rawScalars ? { value } : undefined) };
}
