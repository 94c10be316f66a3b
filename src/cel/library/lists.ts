/**
 * Kubernetes' lists library (apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max,
 * indexOf and lastIndexOf on lists.
 */
import { celEquals, compareValues } from '../values/compare.js';
import { CelError, CelUint, Duration, ListValue, type Result, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';
import { standardFunctions } from '../functions/stdlib.js';

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes'];
const SUMMABLE: [string, Value][] = [
  ['int', 0n],
  ['uint', new CelUint(0n)],
  ['double', 0],
  ['duration', new Duration(0n)],
];

// Found on the first sum: building the standard library's declarations at the module's top would
// cost every process that imports CEL, evaluating or not.
let addOverloads: Map<string, FunctionDecl['overloads'][number]> | undefined;

function sum(list: ListValue, zero: Value, addId: string): Result {
  addOverloads ??= new Map(
    standardFunctions()
      .find((f) => f.name === '_+_')!
      .overloads.map((o) => [o.id, o]),
  );
  const add = addOverloads.get(addId)!.impl!;
  let acc: Result = zero;
  for (const v of list) {
    acc = add([acc as Value, v]);
    if (acc instanceof CelError) return acc;
  }
  return acc;
}

function extreme(list: ListValue, name: string, prefer: number): Result {
  let out: Value | undefined;
  for (const v of list) {
    if (out === undefined || compareValues(out, v) === prefer) out = v;
  }
  return out === undefined ? new CelError(`${name} called on empty list`) : out;
}

function isSorted(list: ListValue): boolean {
  let prev: Value | undefined;
  for (const v of list) {
    if (prev !== undefined && compareValues(prev, v) === 1) return false;
    prev = v;
  }
  return true;
}

const ADD_ID: Record<string, string> = { int: 'add_int64', uint: 'add_uint64', double: 'add_double', duration: 'add_duration_duration' };

/** The declarations of the lists library. */
export function listsFunctions(): FunctionDecl[] {
  return [
    fn('isSorted', ...COMPARABLE.map((t) => overload(`list_${t}_is_sorted_bool`, `list(${t}).() -> bool`, (a) => isSorted(a[0] as ListValue)))),
    fn('sum', ...SUMMABLE.map(([t, zero]) => overload(`list_${t}_sum_${t}`, `list(${t}).() -> ${t}`, (a) => sum(a[0] as ListValue, zero, ADD_ID[t]!)))),
    fn('max', ...COMPARABLE.map((t) => overload(`list_${t}_max_${t}`, `list(${t}).() -> ${t}`, (a) => extreme(a[0] as ListValue, 'max', -1)))),
    fn('min', ...COMPARABLE.map((t) => overload(`list_${t}_min_${t}`, `list(${t}).() -> ${t}`, (a) => extreme(a[0] as ListValue, 'min', 1)))),
    fn(
      'indexOf',
      overload('list_a_index_of_int', 'list(A).(A) -> int', (a) => {
        const l = a[0] as ListValue;
        for (let i = 0; i < l.size; i++) if (celEquals(l.get(i), a[1]!)) return BigInt(i);
        return -1n;
      }),
    ),
    fn(
      'lastIndexOf',
      overload('list_a_last_index_of_int', 'list(A).(A) -> int', (a) => {
        const l = a[0] as ListValue;
        for (let i = l.size - 1; i >= 0; i--) if (celEquals(l.get(i), a[1]!)) return BigInt(i);
        return -1n;
      }),
    ),
  ];
}
