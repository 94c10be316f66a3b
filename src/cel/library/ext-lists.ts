/**
 * cel-go's lists extension at version 3 (ext/lists.go), enabled by Kubernetes since 1.34: slice,
 * flatten, sort, sortBy (through @sortByAssociatedKeys), lists.range, reverse and distinct.
 */
import { celEquals, compareValues } from '../values/compare.js';
import { typeOfValue } from '../values/runtime-types.js';
import { ArrayList, CelError, ListValue, type Result, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes'];

function flatten(list: ListValue, depth: bigint): Result {
  if (depth < 0n) return new CelError('level must be non-negative');
  const out: Value[] = [];
  for (const v of list) {
    if (v instanceof ListValue && depth > 0n) {
      const inner = flatten(v, depth - 1n);
      if (inner instanceof CelError) return inner;
      out.push(...(inner as ListValue));
    } else out.push(v);
  }
  return new ArrayList(out);
}

function sortByKeys(list: ListValue, keys: ListValue): Result {
  if (list.size !== keys.size) {
    return new CelError(
      `@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.size} and ${keys.size} elements respectively`,
    );
  }
  if (list.size === 0) return list;
  const first = typeOfValue(keys.get(0)).name;
  if (compareValues(keys.get(0), keys.get(0)) === undefined && typeof keys.get(0) !== 'number') return new CelError('list elements must be comparable');
  const idx = [...Array(list.size).keys()];
  let failed = false;
  idx.sort((i, j) => {
    const a = keys.get(i);
    const b = keys.get(j);
    if (typeOfValue(a).name !== first || typeOfValue(b).name !== first) {
      failed = true;
      return 0;
    }
    return compareValues(a, b) ?? 0;
  });
  if (failed) return new CelError('list elements must have the same type');
  return new ArrayList(idx.map((i) => list.get(i)));
}

/** The declarations of the lists extension. */
export function extListsFunctions(): FunctionDecl[] {
  return [
    fn(
      'slice',
      overload('list_slice', 'list(T).(int, int) -> list(T)', (a) => {
        const l = a[0] as ListValue;
        const start = a[1] as bigint;
        const end = a[2] as bigint;
        if (start < 0n || end < 0n) return new CelError(`cannot slice(${start}, ${end}), negative indexes not supported`);
        if (start > end) return new CelError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
        if (BigInt(l.size) < end) return new CelError(`cannot slice(${start}, ${end}), list is length ${l.size}`);
        const out: Value[] = [];
        for (let i = Number(start); i < Number(end); i++) out.push(l.get(i));
        return new ArrayList(out);
      }),
    ),
    fn(
      'flatten',
      overload('list_flatten', 'list(list(T)).() -> list(T)', (a) => flatten(a[0] as ListValue, 1n)),
      overload('list_flatten_int', 'list(dyn).(int) -> list(dyn)', (a) => flatten(a[0] as ListValue, a[1] as bigint)),
    ),
    fn('sort', ...COMPARABLE.map((t) => overload(`list_${t}_sort`, `list(${t}).() -> list(${t})`, (a) => sortByKeys(a[0] as ListValue, a[0] as ListValue)))),
    fn(
      '@sortByAssociatedKeys',
      ...COMPARABLE.map((t) =>
        overload(`list_${t}_sortByAssociatedKeys`, `list(T).(list(${t})) -> list(T)`, (a) => sortByKeys(a[0] as ListValue, a[1] as ListValue)),
      ),
    ),
    fn(
      'lists.range',
      overload('lists_range', '(int) -> list(int)', (a) => {
        const n = a[0] as bigint;
        const out: Value[] = [];
        for (let i = 0n; i < n; i++) out.push(i);
        return new ArrayList(out);
      }),
    ),
    fn(
      'reverse',
      overload('list_reverse', 'list(T).() -> list(T)', (a) => new ArrayList([...(a[0] as ListValue)].reverse())),
    ),
    fn(
      'distinct',
      overload('list_distinct', 'list(T).() -> list(T)', (a) => {
        const out: Value[] = [];
        for (const v of a[0] as ListValue) if (!out.some((o) => celEquals(o, v))) out.push(v);
        return new ArrayList(out);
      }),
    ),
  ];
}
