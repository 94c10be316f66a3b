/**
 * Equality of plain JSON values, as the engine compares a written object with the stored one,
 * kinds compare the fields they guard, and server-side apply and the patch engines compare values
 * (structured-merge-diff's `value.Equals`, Go's `reflect.DeepEqual` on decoded JSON, see
 * util/go-value.ts). Own keys only (a `__proto__` or `constructor` member is an ordinary member);
 * a member whose value is `undefined` counts as absent, as in JSON; numbers compare by value.
 * Iterative, so documents nested as deep as Go's decoder accepts cannot exhaust the stack.
 */

/** True when `a` and `b` are the same JSON value. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const left: unknown[] = [a];
  const right: unknown[] = [b];
  while (left.length) {
    const x = left.pop();
    const y = right.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        left.push(x[i]);
        right.push(y[i]);
      }
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    // Members of x must be own members of y; then y must have no defined member x lacks.
    let unmatched = 0;
    for (const k of Object.keys(xo)) {
      const v = xo[k];
      if (v === undefined) continue;
      if (!Object.hasOwn(yo, k)) return false;
      unmatched++;
      left.push(v);
      right.push(yo[k]);
    }
    for (const k of Object.keys(yo)) if (yo[k] !== undefined) unmatched--;
    if (unmatched !== 0) return false;
  }
  return true;
}
