/**
 * Values that are sometimes computed at once and sometimes later: what a path that is synchronous
 * for most callers (a kind that does not convert, or converts in process) and asynchronous for a
 * few (a conversion webhook) hands around, so the common case never pays for a promise.
 */

/**
 * A value, or a promise of it.
 * @category Utilities
 */
export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` is still to come (a native promise: what async functions answer). */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `fn(value)` now when `value` is here, after it arrives otherwise. */
export function thenMaybe<T, U>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
