/**
 * JSON data seen as CEL values through its declared type (apiserver/pkg/cel/common/values.go
 * UnstructuredToVal), lazily: an object, list or map is wrapped, and its members are converted
 * only when a rule reads them. Integers of `integer` fields are ints, numbers doubles, strings of
 * date-time/date/duration/byte formats timestamps, durations and bytes. Lists with
 * x-kubernetes-list-type `set` or `map` compare regardless of order, as in Kubernetes.
 */
import { isJsonObject } from '../../util/go-value.js';
import { celEquals } from '../values/compare.js';
import { Duration, ListValue, MapValue, ObjectValue, Timestamp, type Value } from '../values/values.js';
import { parseDuration, parseTimestamp } from '../values/time.js';
import type { DeclType } from './decl-type.js';
import { keywordFieldName } from './escaping.js';

/** A JSON object of a declared object type. */
class JsonObjectValue extends ObjectValue {
  constructor(
    private readonly decl: DeclType,
    private readonly data: Readonly<Record<string, unknown>>,
  ) {
    super();
  }
  get typeName(): string {
    return this.decl.name;
  }
  field(name: string): Value | undefined {
    const keyword = keywordFieldName(name);
    const f = this.decl.fields!.get(name) ?? (keyword !== undefined ? this.decl.fields!.get(keyword) : undefined);
    if (!f || !Object.prototype.hasOwnProperty.call(this.data, f.jsonName)) return undefined;
    return toCelValue(this.data[f.jsonName], f.type);
  }
  *fieldNames(): IterableIterator<string> {
    for (const f of this.decl.fields!.values()) if (Object.prototype.hasOwnProperty.call(this.data, f.jsonName)) yield f.name;
  }
}

/** A JSON object read as `map(string, T)`. */
class JsonMapValue extends MapValue {
  constructor(
    private readonly elem: DeclType | undefined,
    private readonly data: Readonly<Record<string, unknown>>,
  ) {
    super();
  }
  get size(): number {
    return Object.keys(this.data).length;
  }
  get(key: Value): Value | undefined {
    if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(this.data, key)) return undefined;
    return toCelValue(this.data[key], this.elem);
  }
  keys(): Iterable<string> {
    return Object.keys(this.data);
  }
}

/** A JSON array read as `list(T)`. */
export class JsonListValue extends ListValue {
  constructor(
    private readonly decl: DeclType | undefined,
    private readonly data: readonly unknown[],
  ) {
    super();
  }
  get size(): number {
    return this.data.length;
  }
  get(i: number): Value {
    return toCelValue(this.data[i], this.decl?.elem);
  }
  /** Order-free equality of `set` and `map` lists; undefined for atomic lists. */
  override unorderedEquals(other: ListValue): boolean | undefined {
    const lt = this.decl?.listType;
    if (lt !== 'set' && lt !== 'map') return undefined;
    if (other.size !== this.size) return false;
    if (lt === 'set') {
      for (const v of this) if (![...other].some((o) => celEquals(v, o))) return false;
      return true;
    }
    const keys = this.decl?.listMapKeys ?? [];
    const keyOf = (v: Value): Value[] => keys.map((k) => (v instanceof ObjectValue ? (v.field(k) ?? null) : v instanceof MapValue ? (v.get(k) ?? null) : null));
    for (const v of this) {
      const k = keyOf(v);
      const match = [...other].find((o) => keyOf(o).every((x, i) => celEquals(x, k[i]!)));
      if (match === undefined || !celEquals(v, match)) return false;
    }
    return true;
  }
}

function number(v: number, asInt: boolean): Value {
  if (asInt && Number.isInteger(v)) return BigInt(v);
  return v;
}

/** The CEL value of JSON data of a declared type (`decl` undefined: read the data as it is). */
export function toCelValue(data: unknown, decl: DeclType | undefined): Value {
  if (data === null || data === undefined) return null;
  if (typeof data === 'boolean') return data;
  if (typeof data === 'number') return number(data, decl === undefined || decl.kind === 'int' || decl.kind === 'dyn');
  if (typeof data === 'string') {
    switch (decl?.kind) {
      case 'timestamp': {
        const t = parseTimestamp(data.length === 10 ? `${data}T00:00:00Z` : data);
        return t === undefined ? data : new Timestamp(t);
      }
      case 'duration': {
        const d = parseDuration(data);
        return d === undefined ? data : new Duration(d);
      }
      case 'bytes':
        return new Uint8Array(Buffer.from(data, 'base64'));
      default:
        return data;
    }
  }
  if (Array.isArray(data)) return new JsonListValue(decl?.kind === 'list' ? decl : undefined, data);
  if (isJsonObject(data)) {
    if (decl?.kind === 'object') return new JsonObjectValue(decl, data);
    return new JsonMapValue(decl?.kind === 'map' ? decl.elem : undefined, data);
  }
  return null;
}
