/** Go's `strconv.ParseInt(s, 10, 64)`, for the annotations apps/v1 converts to int64 fields. */
import { goQuote } from '../../util/go-format.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The int64 `s` holds, or the error text Go's `strconv.ParseInt(s, 10, 64)` gives. */
export function parseGoInt64(s: string): bigint | string {
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) return `strconv.ParseInt: parsing ${goQuote(s)}: value out of range`;
  return n;
}
