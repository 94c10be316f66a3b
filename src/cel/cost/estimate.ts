/**
 * Cost and size estimates with cel-go's saturating uint64 arithmetic (checker/cost.go), held as
 * bigints so the 2^64-1 ceiling is exact.
 */
import { MAX_UINT64 } from './constants.js';

/** A range of sizes (string length, list length, ...). */
export interface Range {
  readonly min: bigint;
  readonly max: bigint;
}

const TWO_64_DOUBLE = 2 ** 64;

/** x + y, at most 2^64-1. */
export function addSat(x: bigint, y: bigint): bigint {
  const r = x + y;
  return r > MAX_UINT64 ? MAX_UINT64 : r;
}

/** x * y, at most 2^64-1. */
export function mulSat(x: bigint, y: bigint): bigint {
  const r = x * y;
  return r > MAX_UINT64 ? MAX_UINT64 : r;
}

/** ceil(x * f) computed in float64 as cel-go does, at most 2^64-1. */
export function mulFactor(x: bigint, f: number): bigint {
  const xf = Number(x);
  if (xf > 0 && f > 0 && xf > Number(MAX_UINT64) / f) return MAX_UINT64;
  const c = Math.ceil(xf * f);
  if (c >= TWO_64_DOUBLE) return MAX_UINT64;
  return BigInt(c);
}

/** The range [n, n]. */
export const fixed = (n: bigint | number): Range => ({ min: BigInt(n), max: BigInt(n) });
/** The range of an unknown size: [0, 2^64-1]. */
export const UNKNOWN: Range = { min: 0n, max: MAX_UINT64 };
/** The range [0, 0]. */
export const ZERO: Range = fixed(0);

/** Adds two ranges, saturating. */
export const add = (a: Range, b: Range): Range => ({ min: addSat(a.min, b.min), max: addSat(a.max, b.max) });
/** Multiplies two ranges, saturating. */
export const multiply = (a: Range, b: Range): Range => ({ min: mulSat(a.min, b.min), max: mulSat(a.max, b.max) });
/** Multiplies a range by a cost factor, rounding up. */
export const byFactor = (a: Range, f: number): Range => ({ min: mulFactor(a.min, f), max: mulFactor(a.max, f) });
/** The smallest range holding both. */
export const union = (a: Range, b: Range): Range => ({ min: a.min < b.min ? a.min : b.min, max: a.max > b.max ? a.max : b.max });
