/**
 * CEL values at run time. Scalars are plain JavaScript values where one fits: int is a bigint,
 * double a number, string, bool and null as themselves, bytes a Uint8Array. The others are small
 * classes. Lists, maps and objects are abstract, so a JSON document can be read lazily through
 * its schema instead of being copied into CEL values before every evaluation.
 */
import type { CelType } from '../types/types.js';

/** An unsigned 64-bit integer (CEL `uint`). */
export class CelUint {
  constructor(readonly value: bigint) {}
}

/** A point in time, in nanoseconds since the Unix epoch (CEL `timestamp`). */
export class Timestamp {
  constructor(readonly nanos: bigint) {}
}

/** A span of time in nanoseconds (CEL `duration`, Go's time.Duration). */
export class Duration {
  constructor(readonly nanos: bigint) {}
}

/** A CEL type as a value (`type(x)`, `int`, `list`). */
export class TypeValue {
  constructor(readonly type: CelType) {}
}

/** An optional value (`optional.of(x)`, `optional.none()`, `m.?k`). */
export class OptionalValue {
  private constructor(readonly value: Value | undefined) {}
  static readonly NONE = new OptionalValue(undefined);
  static of(v: Value): OptionalValue {
    return new OptionalValue(v);
  }
  hasValue(): boolean {
    return this.value !== undefined;
  }
}

/** An evaluation error travelling as a value, so `&&`, `||` and `all` can absorb it as CEL requires. */
export class CelError {
  constructor(readonly message: string) {}
}

/** A list. */
export abstract class ListValue {
  abstract readonly size: number;
  /** The element at `i` (0 ≤ i < size). */
  abstract get(i: number): Value;
  /** Equality that ignores order (lists of x-kubernetes-list-type set or map); undefined for ordered lists. */
  unorderedEquals(_other: ListValue): boolean | undefined {
    return undefined;
  }
  *[Symbol.iterator](): IterableIterator<Value> {
    for (let i = 0; i < this.size; i++) yield this.get(i);
  }
}

/** A list held as an array of values. */
export class ArrayList extends ListValue {
  constructor(readonly items: readonly Value[]) {
    super();
  }
  get size(): number {
    return this.items.length;
  }
  get(i: number): Value {
    return this.items[i] as Value;
  }
}

/**
 * A list built by appending, as a comprehension's accumulator grows (`map`, `filter`): appending to
 * the newest version reuses its array, so a fold stays linear; an older version keeps seeing only
 * its own prefix.
 */
export class AppendList extends ListValue {
  constructor(
    private readonly buf: Value[],
    readonly size: number,
  ) {
    super();
  }
  get(i: number): Value {
    return this.buf[i] as Value;
  }
  /** This list followed by `more`. */
  append(more: ListValue): AppendList {
    const buf = this.size === this.buf.length ? this.buf : this.buf.slice(0, this.size);
    for (const v of more) buf.push(v);
    return new AppendList(buf, buf.length);
  }
  /** A copy of any list that can be appended to. */
  static of(l: ListValue): AppendList {
    return l instanceof AppendList ? l : new AppendList([...l], l.size);
  }
}

/** A map. Keys are int, uint, string or bool. */
export abstract class MapValue {
  abstract readonly size: number;
  /** The value at `key`, or undefined when there is none. */
  abstract get(key: Value): Value | undefined;
  /** The keys, in the map's own order. */
  abstract keys(): Iterable<Value>;
}

/** The key under which a map literal files a key: equal numbers share one key, as CEL requires. */
export function mapKeyOf(key: Value): string | undefined {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'bigint') return `n${key}`;
  if (key instanceof CelUint) return `n${key.value}`;
  if (typeof key === 'boolean') return key ? 'T' : 'F';
  if (typeof key === 'number') return Number.isInteger(key) ? `n${BigInt(key)}` : undefined;
  return undefined;
}

/**
 * A map built at run time (a map literal, transformMap). Adding to the newest version reuses its
 * table, so a fold that inserts entry by entry stays linear; an older version keeps seeing only the
 * entries it had.
 */
export class LiteralMap extends MapValue {
  private readonly byKey: Map<string, [Value, Value, number]>;
  private count: number;
  constructor(shared?: Map<string, [Value, Value, number]>, count = 0) {
    super();
    this.byKey = shared ?? new Map();
    this.count = count;
  }
  get size(): number {
    return this.count;
  }
  get(key: Value): Value | undefined {
    const k = mapKeyOf(key);
    if (k === undefined) return undefined;
    const e = this.byKey.get(k);
    return e && e[2] < this.count ? e[1] : undefined;
  }
  /** Adds an entry while building a literal; false when the key is already there or cannot be a key. */
  set(key: Value, value: Value): boolean {
    const k = mapKeyOf(key);
    if (k === undefined || this.get(key) !== undefined) return false;
    if (this.count !== this.byKey.size) return false;
    this.byKey.set(k, [key, value, this.count++]);
    return true;
  }
  /** A new version with one more entry (the key must be absent), leaving this one as it is. */
  with(key: Value, value: Value): LiteralMap {
    const k = mapKeyOf(key)!;
    if (this.count === this.byKey.size) {
      this.byKey.set(k, [key, value, this.count]);
      return new LiteralMap(this.byKey, this.count + 1);
    }
    const copy = this.copy();
    copy.set(key, value);
    return copy;
  }
  *keys(): IterableIterator<Value> {
    for (const [k, , i] of this.byKey.values()) if (i < this.count) yield k;
  }
  /** A copy that can take more entries. */
  copy(): LiteralMap {
    const m = new LiteralMap();
    for (const k of this.keys()) m.set(k, this.get(k)!);
    return m;
  }
}

/** An object of a declared type (a schema object with properties). */
export abstract class ObjectValue {
  /** The declared type's name. */
  abstract readonly typeName: string;
  /** The field's value, or undefined when the field is not set. */
  abstract field(name: string): Value | undefined;
  /** The names of the fields that are set. */
  abstract fieldNames(): Iterable<string>;
}

/**
 * A value of a library type (Quantity, URL, IP, CIDR, Semver, Format): it names its type and
 * says how it compares.
 */
export abstract class OpaqueValue {
  abstract readonly typeName: string;
  /** Equality with another value of the same type. */
  abstract equals(other: OpaqueValue): boolean;
  /** How many cost units sizing this value counts (its traversal size); 1 unless it says otherwise. */
  size(): number {
    return 1;
  }
}

/** Any CEL value. */
export type Value =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | Timestamp
  | Duration
  | TypeValue
  | OptionalValue
  | ListValue
  | MapValue
  | ObjectValue
  | OpaqueValue;

/** A value or an error (what every step of evaluation yields). */
export type Result = Value | CelError;

/** True when `r` is an error. */
export function isError(r: Result): r is CelError {
  return r instanceof CelError;
}

/** The smallest int. */
export const INT64_MIN = -(2n ** 63n);
/** The largest int. */
export const INT64_MAX = 2n ** 63n - 1n;
/** The largest uint. */
export const UINT64_MAX = 2n ** 64n - 1n;
