/**
 * The arithmetic of Prometheus native (sparse, exponential) histogram buckets, as client_golang's
 * prometheus/histogram.go defines it: a schema `s` splits every power of two into `2^s` buckets
 * whose boundaries grow by the factor `2^(2^-s)`; bucket `k` holds the values in
 * `(base^(k-1), base^k]`, so bucket 0 ends at 1, bucket `2^s` at 2.
 */

/** The finest resolution a native histogram may have (`2^(2^-8)`, about 1.0027 per bucket). */
export const NATIVE_SCHEMA_MAX = 8;
/** The coarsest resolution (`2^16` per bucket): resolution reduction stops here. */
export const NATIVE_SCHEMA_MIN = -4;

/**
 * The schema of a bucket factor: the largest resolution whose growth factor `2^(2^-s)` is still at
 * most `factor`, clamped to [-4, 8] (client_golang's pickSchema). 1.1 gives schema 3.
 */
export function pickSchema(bucketFactor: number): number {
  if (!(bucketFactor > 1)) throw new RangeError(`native histogram bucket factor ${bucketFactor} must be greater than 1`);
  const floor = Math.floor(Math.log2(Math.log2(bucketFactor)));
  if (floor <= -NATIVE_SCHEMA_MAX) return NATIVE_SCHEMA_MAX;
  if (floor >= -NATIVE_SCHEMA_MIN) return NATIVE_SCHEMA_MIN;
  return 0 - floor; // not -0
}

/**
 * A finite positive number as `frac * 2^exp` with `frac` in [0.5, 1) (C's and Go's frexp), read
 * from the float's bits so that no rounding creeps in.
 */
export function frexp(value: number): { frac: number; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  let biased = (view.getUint16(0) >>> 4) & 0x7ff;
  let shift = 0;
  if (biased === 0) {
    // Subnormal: scale into the normal range first (2^64 is exact), then take it back out.
    view.setFloat64(0, value * 2 ** 64);
    biased = (view.getUint16(0) >>> 4) & 0x7ff;
    shift = 64;
  }
  const exp = biased - 1022 - shift;
  // Same sign and mantissa, exponent set so the value lies in [0.5, 1).
  view.setUint16(0, (view.getUint16(0) & 0x800f) | (1022 << 4));
  return { frac: view.getFloat64(0), exp };
}

/**
 * The eight bucket boundaries inside a power of two at schema 3 (`2^(k/8 - 1)`, k = 0..7), as the
 * doubles Prometheus and client_golang use: the factor 1.1 Kubernetes asks for gives schema 3, and
 * resolution reduction only ever moves to coarser schemas, whose boundaries are a subset of these.
 */
const SCHEMA_3_BOUNDS: readonly number[] = [
  0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048, 0.7071067811865475, 0.7711054127039704, 0.8408964152537144, 0.9170040432046711,
];

const boundsBySchema = new Map<number, readonly number[]>();

/**
 * The bucket boundaries inside one power of two at a positive schema: `2^(i/2^s - 1)` for
 * i = 0 .. 2^s-1. Up to schema 3 they are taken from the schema-3 table; finer schemas (only
 * reachable with a bucket factor below 1.09) fill the boundaries between with Math.pow, which may
 * differ from client_golang's constants in the last bit.
 */
export function schemaBounds(schema: number): readonly number[] {
  let bounds = boundsBySchema.get(schema);
  if (!bounds) {
    const n = 2 ** Math.max(0, schema);
    bounds = Array.from({ length: n }, (_, i) => {
      const at3 = (i * 8) / n;
      return Number.isInteger(at3) ? SCHEMA_3_BOUNDS[at3]! : Math.pow(2, i / n - 1);
    });
    boundsBySchema.set(schema, bounds);
  }
  return bounds;
}

/**
 * The index of the bucket that holds `|value|` at `schema` (client_golang's histogramCounts.observe):
 * the first bucket whose upper bound is at least the value. Infinity lands one past the bucket of
 * the largest finite double.
 */
export function bucketKey(value: number, schema: number): number {
  let v = Math.abs(value);
  const infinite = v === Infinity;
  if (infinite) v = Number.MAX_VALUE;
  const { frac, exp } = frexp(v);
  let key: number;
  if (schema > 0) {
    const bounds = schemaBounds(schema);
    key = firstAtLeast(bounds, frac) + (exp - 1) * bounds.length;
  } else {
    key = frac === 0.5 ? exp - 1 : exp;
    const offset = (1 << -schema) - 1;
    key = (key + offset) >> -schema;
  }
  return infinite ? key + 1 : key;
}

/** Binary search: the first index whose bound is >= `x`, or the length (Go's sort.SearchFloat64s). */
function firstAtLeast(bounds: readonly number[], x: number): number {
  let lo = 0;
  let hi = bounds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bounds[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The upper bound of bucket `key` at `schema` (client_golang's getLe); the last bucket of finite
 * values ends at the largest double rather than at +Inf, which belongs to the infinity bucket.
 */
export function bucketUpperBound(key: number, schema: number): number {
  if (schema < 0) {
    const exp = key * 2 ** -schema;
    if (exp === 1024) return Number.MAX_VALUE;
    return ldexp(1, exp);
  }
  const size = 2 ** schema;
  const fracIndex = ((key % size) + size) % size;
  const frac = schemaBounds(schema)[fracIndex]!;
  const exp = Math.floor(key / size) + 1;
  if (frac === 0.5 && exp === 1025) return Number.MAX_VALUE;
  return ldexp(frac, exp);
}

/** `frac * 2^exp` without overflowing or underflowing in an intermediate power. */
function ldexp(frac: number, exp: number): number {
  if (exp > 1023) return frac * 2 ** 1023 * 2 ** (exp - 1023);
  if (exp < -1022) return frac * 2 ** (exp + 1022) * 2 ** -1022;
  return frac * 2 ** exp;
}

/** The bucket a key of `schema` falls into at `schema - 1` (two neighbours merge into one). */
export function halvedKey(key: number): number {
  // Bucket k at the finer schema lies within bucket ceil(k/2) at the coarser one.
  return key > 0 ? (key + 1) >> 1 : 0 - (-key >> 1);
}
