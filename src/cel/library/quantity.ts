/**
 * Kubernetes' quantity library (apiserver/pkg/cel/library/quantity.go): quantity(), isQuantity()
 * and the kubernetes.Quantity methods, over memkube's exact quantities (schema/quantity.ts).
 */
import { compareQuantities, formatQuantity, parseQuantity, quantityParseError, type Quantity } from '../../schema/quantity.js';
import { CelError, INT64_MAX, INT64_MIN, OpaqueValue, type Result } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

const NANO = 1_000_000_000n;

/** A kubernetes.Quantity value. */
export class QuantityValue extends OpaqueValue {
  readonly typeName = 'kubernetes.Quantity';
  constructor(readonly q: Quantity) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof QuantityValue && compareQuantities(this.q, other.q) === 0;
  }
  override toString(): string {
    return formatQuantity(this.q);
  }
}

const Q = (v: unknown): Quantity => (v as QuantityValue).q;
const of = (nanos: bigint, like: Quantity): QuantityValue => new QuantityValue({ nanos, format: like.format });

function parse(text: string): Result {
  const err = quantityParseError(text);
  if (err !== undefined || text.trim() !== text) return new CelError(err ?? 'quantities must match the regular expression');
  return new QuantityValue(parseQuantity(text)!);
}

function asInt64(q: Quantity): bigint | undefined {
  if (q.nanos % NANO !== 0n) return undefined;
  const v = q.nanos / NANO;
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/** The declarations of the quantity library. */
export function quantityFunctions(): FunctionDecl[] {
  return [
    fn(
      'quantity',
      overload('string_to_quantity', '(string) -> kubernetes.Quantity', (a) => parse(a[0] as string)),
    ),
    fn(
      'isQuantity',
      overload('is_quantity_string', '(string) -> bool', (a) => quantityParseError(a[0] as string) === undefined),
    ),
    fn(
      'sign',
      overload('quantity_sign', 'kubernetes.Quantity.() -> int', (a) => (Q(a[0]).nanos > 0n ? 1n : Q(a[0]).nanos < 0n ? -1n : 0n)),
    ),
    fn(
      'isGreaterThan',
      overload('quantity_is_greater_than', 'kubernetes.Quantity.(kubernetes.Quantity) -> bool', (a) => compareQuantities(Q(a[0]), Q(a[1])) > 0),
    ),
    fn(
      'isLessThan',
      overload('quantity_is_less_than', 'kubernetes.Quantity.(kubernetes.Quantity) -> bool', (a) => compareQuantities(Q(a[0]), Q(a[1])) < 0),
    ),
    fn(
      'compareTo',
      overload('quantity_compare_to', 'kubernetes.Quantity.(kubernetes.Quantity) -> int', (a) => BigInt(compareQuantities(Q(a[0]), Q(a[1])))),
    ),
    fn(
      'asApproximateFloat',
      overload('quantity_get_float', 'kubernetes.Quantity.() -> double', (a) => Number(Q(a[0]).nanos) / 1e9),
    ),
    fn(
      'asInteger',
      overload('quantity_get_int', 'kubernetes.Quantity.() -> int', (a) => asInt64(Q(a[0])) ?? new CelError('cannot convert value to integer')),
    ),
    fn(
      'isInteger',
      overload('quantity_is_integer', 'kubernetes.Quantity.() -> bool', (a) => asInt64(Q(a[0])) !== undefined),
    ),
    fn(
      'add',
      overload('quantity_add', 'kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity', (a) => of(Q(a[0]).nanos + Q(a[1]).nanos, Q(a[0]))),
      overload('quantity_add_int', 'kubernetes.Quantity.(int) -> kubernetes.Quantity', (a) => of(Q(a[0]).nanos + (a[1] as bigint) * NANO, Q(a[0]))),
    ),
    fn(
      'sub',
      overload('quantity_sub', 'kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity', (a) => of(Q(a[0]).nanos - Q(a[1]).nanos, Q(a[0]))),
      overload('quantity_sub_int', 'kubernetes.Quantity.(int) -> kubernetes.Quantity', (a) => of(Q(a[0]).nanos - (a[1] as bigint) * NANO, Q(a[0]))),
    ),
  ];
}
