/**
 * The JSON text of stored values, made once per value. Stored values are deep-frozen and never
 * change, so their text never changes either: a second get of an unchanged object sends the text
 * made for the first instead of serializing it again. The text lives as long as the value does
 * (a WeakMap entry), and only values someone asked for get one.
 */
import type { StoredValue } from './storage.js';

const texts = new WeakMap<StoredValue, string>();

/** `JSON.stringify(value)` of a stored (deep-frozen) value, cached. Never call it with a value that can change. */
export function storedJsonText(value: StoredValue): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
