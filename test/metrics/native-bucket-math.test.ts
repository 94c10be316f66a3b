import { describe, expect, it } from 'vitest';
import { bucketKey, bucketUpperBound, frexp, halvedKey, pickSchema, schemaBounds } from '../../src/metrics/native-bucket-math.js';

/** The double right above `x`. */
const up = (x: number): number => {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  v.setBigUint64(0, v.getBigUint64(0) + 1n);
  return v.getFloat64(0);
};

describe('native histogram schema from a bucket factor', () => {
  it('picks the largest resolution whose factor 2^(2^-s) is at most the factor', () => {
    // 2^(2^-3) = 1.0905 <= 1.1 < 2^(2^-2) = 1.189: Kubernetes' 1.1 is schema 3.
    expect(pickSchema(1.1)).toBe(3);
    expect(pickSchema(1.09)).toBe(4);
    expect(pickSchema(2)).toBe(0);
    expect(pickSchema(4)).toBe(-1);
    expect(pickSchema(1.0001)).toBe(8); // finer than schema 8 is clamped to 8
    expect(pickSchema(1e9)).toBe(-4); // coarser than schema -4 is clamped to -4
  });

  it('refuses factors of 1 or less, and NaN', () => {
    expect(() => pickSchema(1)).toThrow(RangeError);
    expect(() => pickSchema(0.5)).toThrow(RangeError);
    expect(() => pickSchema(NaN)).toThrow(RangeError);
  });
});

describe('frexp', () => {
  it('splits a number into a fraction in [0.5, 1) and a power of two', () => {
    expect(frexp(1)).toEqual({ frac: 0.5, exp: 1 });
    expect(frexp(3)).toEqual({ frac: 0.75, exp: 2 });
    expect(frexp(0.75)).toEqual({ frac: 0.75, exp: 0 });
    expect(frexp(Number.MAX_VALUE)).toEqual({ frac: 1 - 2 ** -53, exp: 1024 });
    expect(frexp(Number.MIN_VALUE)).toEqual({ frac: 0.5, exp: -1073 }); // subnormal
  });
});

describe('native bucket index at schema 3 (eight buckets per power of two)', () => {
  it('puts a power of two at the top of its bucket: 1 is bucket 0, 2 is bucket 8, 0.5 bucket -8', () => {
    expect(bucketKey(1, 3)).toBe(0);
    expect(bucketKey(2, 3)).toBe(8);
    expect(bucketKey(0.5, 3)).toBe(-8);
    expect(bucketKey(up(1), 3)).toBe(1);
  });

  it('indexes values between powers of two by 2^(k/8)', () => {
    // 2^(4/8) = 1.414 < 1.5 <= 2^(5/8) = 1.542
    expect(bucketKey(1.5, 3)).toBe(5);
    // 2^(12/8) = 2.828 < 3 <= 2^(13/8) = 3.084
    expect(bucketKey(3, 3)).toBe(13);
    // log2(0.001) * 8 = -79.7: bucket -79 holds (2^(-80/8), 2^(-79/8)]
    expect(bucketKey(0.001, 3)).toBe(-79);
    // log2(1000) * 8 = 79.7
    expect(bucketKey(1000, 3)).toBe(80);
  });

  it('counts an upper bound in its own bucket and the next double in the next one', () => {
    const bound = bucketUpperBound(5, 3);
    expect(bound).toBe(2 * 0.7711054127039704);
    expect(bucketKey(bound, 3)).toBe(5);
    expect(bucketKey(up(bound), 3)).toBe(6);
  });

  it('indexes by absolute value (negative observations use the same keys)', () => {
    expect(bucketKey(-1.5, 3)).toBe(5);
    expect(bucketKey(-0.001, 3)).toBe(-79);
  });

  it('puts the largest double in the last bucket and infinity one past it', () => {
    expect(bucketKey(Number.MAX_VALUE, 3)).toBe(8192);
    expect(bucketKey(Infinity, 3)).toBe(8193);
    expect(bucketUpperBound(8192, 3)).toBe(Number.MAX_VALUE);
    expect(bucketUpperBound(8193, 3)).toBe(Infinity);
  });

  it('has schema bounds that are the powers 2^(i/8 - 1), coarser schemas a subset', () => {
    schemaBounds(3).forEach((b, i) => expect(b).toBeCloseTo(2 ** (i / 8 - 1), 15));
    expect(schemaBounds(2)).toEqual([0, 2, 4, 6].map((i) => schemaBounds(3)[i]));
    expect(schemaBounds(1)).toEqual([0.5, 0.7071067811865475]);
  });
});

describe('native bucket index at schemas 0 and below', () => {
  it('uses powers of two at schema 0 and powers of 4, 16 below', () => {
    expect(bucketKey(3, 0)).toBe(2); // (2, 4]
    expect(bucketKey(4, 0)).toBe(2);
    expect(bucketKey(4.5, 0)).toBe(3);
    expect(bucketKey(3, -1)).toBe(1); // (1, 4]
    expect(bucketKey(0.1, -2)).toBe(0); // (1/16, 1]
    expect(bucketKey(17, -2)).toBe(2); // (16, 256]
    expect(bucketUpperBound(2, -2)).toBe(256);
    expect(bucketUpperBound(64, -4)).toBe(Number.MAX_VALUE);
  });
});

describe('bucket keys and upper bounds agree', () => {
  it('maps every upper bound back to its key, at every schema', () => {
    for (let schema = -4; schema <= 8; schema++) {
      for (const key of [-300, -17, -9, -8, -1, 0, 1, 7, 8, 9, 100]) {
        // Only keys whose bounds are normal doubles (2^-1022 .. 2^1023).
        if (Math.abs(key) * 2 ** -schema > 1000) continue;
        expect(bucketKey(bucketUpperBound(key, schema), schema)).toBe(key);
      }
    }
  });

  it('merges neighbouring buckets when the schema drops by one', () => {
    expect([-3, -2, -1, 0, 1, 2, 3, 4].map(halvedKey)).toEqual([-1, -1, 0, 0, 1, 1, 2, 2]);
    expect(Object.is(halvedKey(-1), -0)).toBe(false);
    // Bucket k of schema s lies inside bucket halvedKey(k) of schema s-1.
    for (const k of [-9, -8, -1, 0, 1, 5, 8]) {
      const v = bucketUpperBound(k, 3);
      expect(bucketKey(v, 2)).toBe(halvedKey(k));
    }
  });
});
