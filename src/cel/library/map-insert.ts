/** `cel.@mapInsert`, the step function of transformMap and transformMapEntry (cel-go ext/comprehensions.go). */
import { CelError, LiteralMap, MapValue, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';
import { keyText } from '../functions/stdlib.js';

function insert(m: MapValue, k: Value, v: Value): Value | CelError {
  if (m.get(k) !== undefined) return new CelError(`insert failed: key ${keyText(k)} already exists`);
  if (m instanceof LiteralMap) return m.with(k, v);
  const out = new LiteralMap();
  for (const key of m.keys()) out.set(key, m.get(key)!);
  out.set(k, v);
  return out;
}

/** The declaration of cel.@mapInsert. */
export function mapInsertFunctions(): FunctionDecl[] {
  return [
    fn(
      'cel.@mapInsert',
      overload('@mapInsert_map_key_value', '(map(K, V), K, V) -> map(K, V)', (a) => insert(a[0] as MapValue, a[1]!, a[2]!)),
      overload('@mapInsert_map_map', '(map(K, V), map(K, V)) -> map(K, V)', (a) => {
        let out: Value | CelError = a[0]!;
        const add = a[1] as MapValue;
        for (const k of add.keys()) {
          out = insert(out as MapValue, k, add.get(k)!);
          if (out instanceof CelError) return out;
        }
        return out;
      }),
    ),
  ];
}
