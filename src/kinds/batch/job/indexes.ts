/**
 * Index interval lists of Indexed Jobs (`1,3-5,7`), as `pkg/apis/batch/validation/validation.go`
 * parses them (`validateIndexesFormat`, `parseIndexInterval`,
 * `validateFailedIndexesNotOverlapCompleted`). Errors carry Kubernetes' own text.
 */
import { goQuote } from '../../../util/go-format.js';

const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.Atoi` on a 64-bit platform: the integer, or undefined for a syntax or range error. */
export function goAtoi(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > INT64_MAX || n < -INT64_MAX - 1n ? undefined : n;
}

/** An interval `x` or `x-y` of indexes below `completions`, or the error Kubernetes reports. */
export function parseIndexInterval(interval: string, completions: number): { x: bigint; y: bigint } | { error: string } {
  const limits = interval.split('-');
  if (limits.length > 2) {
    return { error: `the fragment ${goQuote(interval)} violates the requirement that an index interval can have at most two parts separated by '-'` };
  }
  const x = goAtoi(limits[0]!);
  if (x === undefined) return { error: `cannot convert string to integer for index: ${goQuote(limits[0]!)}` };
  if (x >= BigInt(completions)) return { error: `too large index: ${goQuote(limits[0]!)}` };
  if (limits.length > 1) {
    const y = goAtoi(limits[1]!);
    if (y === undefined) return { error: `cannot convert string to integer for index: ${goQuote(limits[1]!)}` };
    if (y >= BigInt(completions)) return { error: `too large index: ${goQuote(limits[1]!)}` };
    if (x >= y) return { error: `non-increasing order, previous: ${x}, current: ${y}` };
    return { x, y };
  }
  return { x, y: x };
}

/** `validateIndexesFormat`: the number of indexes the list names, or the first error. */
export function validateIndexesFormat(indexes: string, completions: number): { total: number } | { error: string } {
  if (indexes.length === 0) return { total: 0 };
  let last: bigint | undefined;
  let total = 0n;
  for (const interval of indexes.split(',')) {
    const parsed = parseIndexInterval(interval, completions);
    if ('error' in parsed) return parsed;
    if (last !== undefined && last >= parsed.x) return { error: `non-increasing order, previous: ${last}, current: ${parsed.x}` };
    total += parsed.y - parsed.x + 1n;
    last = parsed.y;
  }
  return { total: Number(BigInt.asIntN(32, total)) };
}

/** `validateFailedIndexesNotOverlapCompleted`: the overlap error, or undefined. */
export function failedOverlapsCompleted(completed: string, failed: string, completions: number): string | undefined {
  if (completed.length === 0 || failed.length === 0) return undefined;
  const c = completed.split(',');
  const f = failed.split(',');
  let ci = 0;
  let fi = 0;
  let cur = parseIndexInterval(c[0]!, completions);
  let fcur = parseIndexInterval(f[0]!, completions);
  while (ci < c.length && fi < f.length) {
    if ('error' in cur) {
      ci++;
      if (ci < c.length) cur = parseIndexInterval(c[ci]!, completions);
    } else if ('error' in fcur) {
      fi++;
      if (fi < f.length) fcur = parseIndexInterval(f[fi]!, completions);
    } else {
      if (cur.x <= fcur.y && fcur.x <= cur.y) return `failedIndexes and completedIndexes overlap at index: ${cur.x > fcur.x ? cur.x : fcur.x}`;
      if (cur.x <= fcur.x) {
        ci++;
        if (ci < c.length) cur = parseIndexInterval(c[ci]!, completions);
      } else {
        fi++;
        if (fi < f.length) fcur = parseIndexInterval(f[fi]!, completions);
      }
    }
  }
  return undefined;
}
