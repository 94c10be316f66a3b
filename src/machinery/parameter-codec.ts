/**
 * Query parameters read as Kubernetes' parameter codec reads them into an options struct
 * (apimachinery's `Convert_Slice_string_To_*`): the first value counts; booleans are true unless
 * `false` or `0` (any case); integers are Go's `strconv.ParseInt`, whose error text a malformed one
 * answers in a 400.
 */
import { badRequest } from './errors.js';

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** Go's `strconv.ParseInt(s, 10, 64)`, with its error text as a 400. */
export function parseGoInt64(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > INT64_MAX || n < INT64_MIN) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(n);
}

/** `Convert_Slice_string_To_bool`: absent is undefined; only `false` and `0` are false, even `?x=` is true. */
export function paramBool(values: readonly string[] | undefined): boolean | undefined {
  const v = values?.[0];
  if (v === undefined) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** `Convert_Slice_string_To_Pointer_int64`: absent or empty is undefined. */
export function paramInt64(values: readonly string[] | undefined): number | undefined {
  const v = values?.[0];
  return v === undefined || v === '' ? undefined : parseGoInt64(v);
}

/** `Convert_Slice_string_To_string`: the first value. */
export function paramString(values: readonly string[] | undefined): string | undefined {
  return values?.[0];
}
