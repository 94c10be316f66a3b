/**
 * Reads the type notation the function tables are written in (`list(T)`, `map(string, dyn)`,
 * `optional_type(T)`, `net.IP`), so a table reads like cel-go's declarations.
 */
import {
  ANY,
  BOOL,
  BYTES,
  CelType,
  DOUBLE,
  DURATION,
  DYN,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  TYPE,
  UINT,
  listType,
  mapType,
  opaqueType,
  optionalType,
  structType,
  typeOfType,
  typeParam,
} from './types.js';

const SIMPLE: Record<string, CelType> = {
  int: INT,
  uint: UINT,
  double: DOUBLE,
  bool: BOOL,
  string: STRING,
  bytes: BYTES,
  null_type: NULL,
  dyn: DYN,
  any: ANY,
  duration: DURATION,
  timestamp: TIMESTAMP,
  type: TYPE,
};

/** Opaque library types; the other dotted names are object (struct) types. */
const OPAQUE = new Set(['net.IP', 'net.CIDR']);

/** Parses a type written in the notation above; single capital letters are type parameters. */
export function parseType(text: string): CelType {
  let i = 0;
  const s = text.replace(/\s+/g, '');
  const read = (): CelType => {
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (!m) throw new Error(`bad type notation: ${text}`);
    const name = m[0];
    i += name.length;
    const params: CelType[] = [];
    if (s[i] === '(') {
      i++;
      for (;;) {
        params.push(read());
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ')') {
          i++;
          break;
        }
        throw new Error(`bad type notation: ${text}`);
      }
    }
    if (name === 'list') return listType(params[0]!);
    if (name === 'map') return mapType(params[0]!, params[1]!);
    if (name === 'optional_type') return optionalType(params[0]!);
    if (name === 'type' && params.length === 1) return typeOfType(params[0]!);
    if (SIMPLE[name]) return SIMPLE[name];
    if (/^[A-Z]$/.test(name)) return typeParam(name);
    if (OPAQUE.has(name)) return opaqueType(name, ...params);
    return structType(name);
  };
  const t = read();
  if (i !== s.length) throw new Error(`bad type notation: ${text}`);
  return t;
}
