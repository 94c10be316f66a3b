/**
 * Deep copies of JSON values. Two, because their callers need different things:
 *
 * - {@link cloneJson} copies the objects the engine holds (every in-process answer, the working
 *   copy of an update): recursive, which is the fastest way to copy the shallow trees an API
 *   object is, and a copy of exactly the own enumerable members it finds.
 * - {@link cloneJsonDocument} copies a document a client sent, as the patch engines and
 *   server-side apply work on it: iterative, so a document nested as deep as Go's decoder
 *   accepts (10000 levels) cannot exhaust the stack; normalized as JSON (an `undefined` member is
 *   left out, an `undefined` item becomes `null`); and the raw texts recorded for its scalars
 *   (util/json-raw.ts) are recorded for the copy, since the patch engines compare by them.
 *
 * Both are safe for `__proto__` keys (defined, never assigned) and return plain objects.
 */
import { rawTextsOf, setRawText } from './json-raw.js';
import { setOwn } from './own.js';

/** A mutable deep copy of a JSON value (faster than structuredClone for plain JSON). */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out[i] = v !== null && typeof v === 'object' ? cloneJson(v) : v;
    }
    return out as T;
  }
  // A spread first: V8 copies an object's own members in one step (its clone-object fast path,
  // which also defines a `__proto__` member rather than setting the prototype), cheaper than
  // adding them one by one; then only the members holding objects are replaced by their copies.
  // for-in rather than Object.entries: every watcher of every event gets a copy, and the
  // [key, value] pairs (and a key array) were most of what a copy allocated.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k in out) {
    const v = out[k];
    if (v === null || typeof v !== 'object') continue;
    if (k === '__proto__') setOwn(out, k, cloneJson(v));
    else out[k] = cloneJson(v);
  }
  return out as T;
}

/**
 * A deep copy of a decoded JSON document of any depth; `undefined` members dropped like JSON.
 * The raw texts recorded for the source's scalars (util/json-raw.ts) are recorded for the copy.
 */
export function cloneJsonDocument<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? new Array<unknown>() : {};
  const stack: Array<[unknown, unknown]> = [[value, root]];
  while (stack.length) {
    const [src, dst] = stack.pop()!;
    const raw = rawTextsOf(src as object);
    if (raw) for (const [slot, text] of raw) setRawText(dst as object, slot, text);
    if (Array.isArray(src)) {
      const out = dst as unknown[];
      for (const item of src) {
        if (typeof item === 'object' && item !== null) {
          const child: unknown = Array.isArray(item) ? [] : {};
          out.push(child);
          stack.push([item, child]);
        } else out.push(item === undefined ? null : item);
      }
    } else {
      const out = dst as Record<string, unknown>;
      for (const k of Object.keys(src as object)) {
        const item = (src as Record<string, unknown>)[k];
        if (item === undefined) continue;
        if (typeof item === 'object' && item !== null) {
          const child: unknown = Array.isArray(item) ? [] : {};
          setOwn(out, k, child);
          stack.push([item, child]);
        } else setOwn(out, k, item);
      }
    }
  }
  return root as T;
}
