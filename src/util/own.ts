/**
 * Reading and writing objects by keys that come from users (ConfigMap data keys, label keys,
 * field names of a patch). Any string is a valid JSON member name, so `__proto__`, `constructor`,
 * `toString` are ordinary keys here: `obj[k] = v` with `k === '__proto__'` would set the
 * prototype (or, for a non-object value, do nothing at all), and `obj[k]`/`k in obj` would find
 * `constructor` or `toString` on `Object.prototype`. Objects stay plain objects (Object.prototype
 * as prototype), because everything downstream (immer, zod, JSON.stringify, structuredClone)
 * expects them; only the access goes through these helpers.
 */

/** Own-property test (never the prototype chain). */
export function hasOwn(o: object, k: string): boolean {
  return Object.hasOwn(o, k);
}

/** Reads an own property (`undefined` when absent, even for `constructor` or `toString`). */
export function getOwn(o: object, k: string): unknown {
  return Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

/** Sets an own enumerable property; `__proto__` is defined, never assigned, so no prototype changes. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}
