/** How deep a decoded JSON document nests, measured without recursion. */

/**
 * True when the value nests more than `max` arrays/objects. Go's JSON scanner refuses text nested
 * deeper than 10000 (`maxNestingDepth`), so `json.Valid` fails and the API server answers
 * 400 `invalid JSON patch` before looking at the patch.
 */
export function nestingExceeds(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push([c, depth + 1]);
  }
  return false;
}
