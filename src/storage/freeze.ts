import { setOwn } from '../util/own.js';

/** Deep-freezes a JSON value so nothing holding it can change what is stored. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Walked without Object.values, which makes an array per object of every stored write.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const k in value) if (Object.hasOwn(value, k)) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}

/**
 * A deep-frozen copy of a JSON value made of fresh plain objects and arrays; parts that are frozen
 * already (shared with a stored value) are kept as they are, not copied. Objects built here by
 * plain assignment share V8 hidden classes with every other object of the same shape; the
 * working copies a write pipeline produces (spreads, deletes, immer drafts) often each get a
 * hidden class of their own once frozen, which costs a few hundred bytes per object stored.
 */
export function freezeFresh<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(freezeFresh)) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    // `__proto__` is an ordinary key in JSON (a ConfigMap may hold one): define it, never set the prototype.
    setOwn(out, k, freezeFresh((value as Record<string, unknown>)[k]));
  }
  return Object.freeze(out) as T;
}
