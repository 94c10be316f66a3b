/** cel-go's sets extension (ext/sets.go): sets.contains, sets.equivalent, sets.intersects over lists. */
import { celEquals } from '../values/compare.js';
import type { ListValue, Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

const has = (l: ListValue, v: Value): boolean => {
  for (const e of l) if (celEquals(e, v)) return true;
  return false;
};
const contains = (a: ListValue, b: ListValue): boolean => {
  for (const v of b) if (!has(a, v)) return false;
  return true;
};

/** The declarations of the sets extension. */
export function setsFunctions(): FunctionDecl[] {
  return [
    fn(
      'sets.contains',
      overload('list_sets_contains_list', '(list(T), list(T)) -> bool', (a) => contains(a[0] as ListValue, a[1] as ListValue)),
    ),
    fn(
      'sets.equivalent',
      overload(
        'list_sets_equivalent_list',
        '(list(T), list(T)) -> bool',
        (a) => contains(a[0] as ListValue, a[1] as ListValue) && contains(a[1] as ListValue, a[0] as ListValue),
      ),
    ),
    fn(
      'sets.intersects',
      overload('list_sets_intersects_list', '(list(T), list(T)) -> bool', (a) => {
        for (const v of a[0] as ListValue) if (has(a[1] as ListValue, v)) return true;
        return false;
      }),
    ),
  ];
}
