/**
 * The types of values at run time: what `type(x)` answers, how `dyn` calls pick an overload, and
 * the size a cost is measured in.
 */
import {
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
} from '../types/types.js';
import { CelUint, Duration, ListValue, MapValue, ObjectValue, OpaqueValue, OptionalValue, Timestamp, TypeValue, type Value } from './values.js';

const OPAQUE_NAMES = new Set(['net.IP', 'net.CIDR']);

/** The runtime type of a value (lists and maps are `list(dyn)`, `map(dyn, dyn)`). */
export function typeOfValue(v: Value): CelType {
  if (v === null) return NULL;
  switch (typeof v) {
    case 'boolean':
      return BOOL;
    case 'bigint':
      return INT;
    case 'number':
      return DOUBLE;
    case 'string':
      return STRING;
    default:
      break;
  }
  if (v instanceof Uint8Array) return BYTES;
  if (v instanceof CelUint) return UINT;
  if (v instanceof Timestamp) return TIMESTAMP;
  if (v instanceof Duration) return DURATION;
  if (v instanceof TypeValue) return TYPE;
  if (v instanceof OptionalValue) return optionalType(DYN);
  if (v instanceof ListValue) return listType(DYN);
  if (v instanceof MapValue) return mapType(DYN, DYN);
  if (v instanceof ObjectValue) return structType(v.typeName);
  if (v instanceof OpaqueValue) return OPAQUE_NAMES.has(v.typeName) ? opaqueType(v.typeName) : structType(v.typeName);
  return DYN;
}

/** Whether a value can be passed where `t` is declared (the overload dispatch check). */
export function valueMatches(t: CelType, v: Value): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'any':
    case 'typeparam':
      return true;
    case 'int':
      return typeof v === 'bigint';
    case 'uint':
      return v instanceof CelUint;
    case 'double':
      return typeof v === 'number';
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'bytes':
      return v instanceof Uint8Array;
    case 'null':
      return v === null;
    case 'timestamp':
      return v instanceof Timestamp;
    case 'duration':
      return v instanceof Duration;
    case 'list':
      return v instanceof ListValue;
    case 'map':
      return v instanceof MapValue;
    case 'type':
      return v instanceof TypeValue;
    case 'struct':
      return (v instanceof ObjectValue || v instanceof OpaqueValue) && v.typeName === t.name;
    case 'opaque':
      if (t.name === 'optional_type') return v instanceof OptionalValue;
      return v instanceof OpaqueValue && v.typeName === t.name;
    default:
      return false;
  }
}

/** The number of code points of a string. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

/** cel-go's actualSize: the size a runtime cost is proportional to (1 for values without one). */
export function actualSize(v: Value): number {
  if (typeof v === 'string') return codePoints(v);
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof ListValue) return v.size;
  if (v instanceof MapValue) return v.size;
  if (v instanceof OptionalValue && v.value !== undefined) return actualSize(v.value);
  if (v instanceof OpaqueValue) return v.size();
  return 1;
}
