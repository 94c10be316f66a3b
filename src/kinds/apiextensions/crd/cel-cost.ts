/**
 * The static cost budget of `x-kubernetes-validations` (apiextensions-apiserver validation.go and
 * cel_validation.go): a rule's estimated cost times how many times it can run per object (the
 * product of `maxItems`/`maxProperties` of the lists and maps above it, or the compiler's own
 * estimate when one is unbounded) may not exceed 10,000,000, and all rules of a schema together
 * 100,000,000. Costs are unsigned 64-bit in Kubernetes; here they are BigInts clamped the same way.
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { additionalProperties, typeOf } from './schema-access.js';

/** The largest estimated cost of one expression. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
/** The largest estimated cost of all the expressions of one schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;
const MAX_UINT64 = (1n << 64n) - 1n;

/** `multiplyWithOverflowGuard`. */
export function multiplyCost(base: bigint, cardinality: bigint): bigint {
  if (base === 0n) return 0n;
  const product = base * cardinality;
  return product > MAX_UINT64 ? MAX_UINT64 : product;
}

/** A non-negative whole cost from the compiler's number. */
export function toCost(n: number): bigint {
  if (!Number.isFinite(n)) return n > 0 ? MAX_UINT64 : 0n;
  return n <= 0 ? 0n : BigInt(Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER * 2 ** 11));
}

/** `extractMaxElements`: how many children a node has at most (undefined: unbounded). */
export function maxElements(s: JSONSchemaProps): bigint | undefined {
  switch (typeOf(s)) {
    case 'object':
      if (additionalProperties(s)) return typeof s.maxProperties === 'number' ? BigInt(Math.max(0, s.maxProperties)) : undefined;
      return 1n;
    case 'array':
      return typeof s.maxItems === 'number' ? BigInt(Math.max(0, s.maxItems)) : undefined;
    default:
      return 1n;
  }
}

/** Go's `%f` of a float64 (six decimals). */
const fixed6 = (f: number): string => f.toFixed(6);

/** `getCostErrorMessage`. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const factor = Number(cost) / Number(limit);
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${fixed6(factor)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The running total of a schema's rule costs, and its four most expensive rules (`TotalCost`). */
export class TotalCost {
  total = 0n;
  mostExpensive: { path: string; cost: bigint }[] = [];

  /** `ObserveExpressionCost`. */
  observe(path: string, cost: bigint): void {
    this.total = this.total + cost > MAX_UINT64 ? MAX_UINT64 : this.total + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}
