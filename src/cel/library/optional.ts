/**
 * cel-go's optional library (cel.OptionalTypes, latest version, as Kubernetes enables it since
 * 1.28): optional.of, optional.ofNonZeroValue, optional.none, hasValue, value, or, orValue,
 * optional.unwrap, the `.?` and `[?]` operators and indexing through optionals. optMap and
 * optFlatMap are macros (syntax/macros.ts).
 */
import { ArrayList, CelError, CelUint, Duration, ListValue, MapValue, ObjectValue, OptionalValue, Timestamp, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

/** cel-go's zero-value test behind optional.ofNonZeroValue. */
function isZero(v: Value): boolean {
  if (v === null || v === false || v === 0n || v === 0 || v === '') return true;
  if (v instanceof CelUint) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof ListValue || v instanceof MapValue) return v.size === 0;
  if (v instanceof Duration || v instanceof Timestamp) return v.nanos === 0n;
  if (v instanceof ObjectValue) return [...v.fieldNames()].length === 0;
  if (v instanceof OptionalValue) return !v.hasValue();
  return false;
}

const O = (v: Value | undefined): OptionalValue => v as OptionalValue;

/** The declarations of the optional library (the `_?._`, `_[?_]` operators are planned by the interpreter). */
export function optionalFunctions(): FunctionDecl[] {
  return [
    fn(
      'optional.of',
      overload('optional_of', '(V) -> optional_type(V)', (a) => OptionalValue.of(a[0]!)),
    ),
    fn(
      'optional.ofNonZeroValue',
      overload('optional_ofNonZeroValue', '(V) -> optional_type(V)', (a) => (isZero(a[0]!) ? OptionalValue.NONE : OptionalValue.of(a[0]!))),
    ),
    fn(
      'optional.none',
      overload('optional_none', '() -> optional_type(T)', () => OptionalValue.NONE),
    ),
    fn(
      'value',
      overload('optional_value', 'optional_type(V).() -> V', (a) => O(a[0]).value ?? new CelError('optional.none() dereference')),
    ),
    fn(
      'hasValue',
      overload('optional_hasValue', 'optional_type(V).() -> bool', (a) => O(a[0]).hasValue()),
    ),
    fn(
      'or',
      overload('optional_or_optional', 'optional_type(V).(optional_type(V)) -> optional_type(V)', (a) => (O(a[0]).hasValue() ? a[0]! : a[1]!)),
    ),
    fn(
      'orValue',
      overload('optional_orValue_value', 'optional_type(V).(V) -> V', (a) => O(a[0]).value ?? a[1]!),
    ),
    fn(
      'optional.unwrap',
      overload(
        'optional_unwrap',
        '(list(optional_type(V))) -> list(V)',
        (a) => new ArrayList([...(a[0] as ListValue)].flatMap((o) => (O(o).hasValue() ? [O(o).value!] : []))),
      ),
    ),
    fn('_?._', overload('select_optional_field', '(dyn, string) -> dyn')),
    fn(
      '_[?_]',
      overload('list_optindex_optional_int', '(list(V), int) -> optional_type(V)'),
      overload('optional_list_optindex_optional_int', '(optional_type(list(V)), int) -> optional_type(V)'),
      overload('map_optindex_optional_value', '(map(K, V), K) -> optional_type(V)'),
      overload('optional_map_optindex_optional_value', '(optional_type(map(K, V)), K) -> optional_type(V)'),
    ),
    fn(
      '_[_]',
      overload('optional_list_index_int', '(optional_type(list(V)), int) -> optional_type(V)'),
      overload('optional_map_index_value', '(optional_type(map(K, V)), K) -> optional_type(V)'),
    ),
  ];
}
