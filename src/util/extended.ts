/**
 * A copy of an object with more properties: what `{ ...base, extra: value }` says, without the
 * price Node 20's V8 puts on it. A spread followed by a property the spread object does not have
 * leaves the fast object-cloning path: about 1.5–2.5 µs per copy on this engine against about
 * 0.1 µs for `Object.assign` onto a new object, and the request path makes several such copies.
 */
export function extended<T extends object, E extends object>(base: T, extra: E): Omit<T, keyof E> & E {
  return Object.assign({}, base, extra);
}
