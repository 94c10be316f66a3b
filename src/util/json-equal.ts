/**
 * Equality of plain JSON values, as the engine compares a written object with the stored one,
 * kinds compare the fields they guard, and server-side apply and the patch engines compare values
 * (structured-merge-diff's `value.Equals`, Go's `reflect.DeepEqual` on decoded JSON, see
 * util/go-value.ts). Own keys only (a `__proto__` or `constructor` member is an ordinary member);
 * a member whose value is `undefined` counts as absent, as in JSON; numbers compare by value.
 * Recursive while the documents are shallow (API objects are), iterative past that, so documents
 * nested as deep as Go's decoder accepts cannot exhaust the stack.
 */

/** How deep the recursive walk goes before the rest is compared iteratively. */
const RECURSION_LIMIT = 64;

/** True when `a` and `b` are the same JSON value. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equalAt(a, b, 0);
}

function equalAt(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth >= RECURSION_LIMIT) return equalIteratively(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalAt(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let matched = 0;
  for (const k of Object.keys(ao)) {
    const v = ao[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(bo, k) || !equalAt(v, bo[k], depth + 1)) return false;
    matched++;
  }
  for (const k of Object.keys(bo)) if (bo[k] !== undefined) matched--;
  return matched === 0;
}

function equalIteratively(a: unknown, b: unknown): boolean {
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
