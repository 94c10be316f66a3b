/**
 * The JSON of stored values, made once per value. Stored values are deep-frozen and never change,
 * so their JSON never changes either: a second get of an unchanged object sends the bytes made for
 * the first instead of serializing and encoding it again. The bytes live as long as the value does
 * (a WeakMap entry), and only values someone asked for get them.
 */
import type { StoredValue } from './storage.js';

const lines = new WeakMap<StoredValue, Buffer>();

/**
 * The UTF-8 bytes of `JSON.stringify(value)` followed by a newline (as the API server's JSON
 * encoder ends an object), cached. Never call it with a value that can change, and never change
 * the bytes it returns: every later get of the value sends them.
 */
export function storedJsonLine(value: StoredValue): Buffer {
  let bytes = lines.get(value);
  if (bytes === undefined) {
    const text = JSON.stringify(value);
    // Not Buffer.from: a small one is a slice of a shared 8 KB pool, which a cached slice would keep alive.
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text) + 1);
    bytes.write(text);
    bytes[bytes.length - 1] = 0x0a;
    lines.set(value, bytes);
  }
  return bytes;
}
