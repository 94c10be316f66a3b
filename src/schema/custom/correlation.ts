/**
 * The old value that corresponds to a new value, walked down a schema: k8s.io/apiserver's
 * `common.CorrelatedObject`, which validation ratcheting and CEL transition rules
 * (`oldSelf`) both use.
 *
 * - a property (or a value of `additionalProperties`) correlates with the same key of the old
 *   object, when both objects have it and the schema describes it;
 * - an item of an `x-kubernetes-list-type: map` list correlates with the old item of the same map
 *   keys (the first such old item); items of `set`, `atomic` and untyped lists correlate with
 *   nothing (a change of order is not a change of the items);
 * - {@link Correlation.deepEqual} (Go's `CachedDeepEqual`) says whether the new value is unchanged:
 *   compared through the correlations, so a map list whose items only moved is unchanged.
 *
 * Results are cached per node, so asking again is free. The time spent comparing is summed over
 * the whole tree ({@link Correlation.comparisonSeconds}): what
 * `apiextensions_apiserver_validation_ratcheting_seconds` observes for each update.
 */
import { goKind, scalarKey } from '../../util/go-value.js';
import { jsonEqual } from '../../util/json-equal.js';
import { getOwn } from '../../util/own.js';

/** What correlation reads of a schema node (a {@link CustomSchemaNode} is one). */
export interface CorrelationSchema {
  readonly type: string;
  readonly properties: ReadonlyMap<string, CorrelationSchema> | undefined;
  readonly additionalProperties: { readonly node: CorrelationSchema | undefined } | undefined;
  readonly items: CorrelationSchema | undefined;
  readonly listType: string | undefined;
  readonly listMapKeys: readonly string[];
}

type JsonMap = Record<string, unknown>;

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNil = (v: unknown) => v === null || v === undefined;

/** The key a map-list item is found by (Go's `CompositeKeyFor`); undefined when a key is missing or not a scalar. */
function compositeKey(item: JsonMap, keys: readonly string[]): string | undefined {
  const parts: string[] = [];
  for (const k of keys) {
    const v = getOwn(item, k);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    parts.push(scalarKey(v)!);
  }
  return parts.join('\u0000');
}

/** The old items of a map list, found by key lazily (Go's `mapListImpl`: the first old item of a key wins). */
class MapList {
  private readonly keyed = new Map<string, JsonMap>();
  private next = 0;

  constructor(
    private readonly keys: readonly string[],
    private readonly items: readonly unknown[],
  ) {}

  get(item: unknown): JsonMap | undefined {
    if (!isMap(item) || this.keys.length === 0) return undefined;
    const key = compositeKey(item, this.keys);
    if (key === undefined) return undefined;
    const hit = this.keyed.get(key);
    if (hit) return hit;
    while (this.next < this.items.length) {
      const old = this.items[this.next++];
      if (!isMap(old)) continue;
      const oldKey = compositeKey(old, this.keys);
      if (oldKey === undefined) continue;
      if (!this.keyed.has(oldKey)) this.keyed.set(oldKey, old);
      if (oldKey === key) return old;
    }
    return undefined;
  }
}

/** The comparison time of one correlation tree, shared by all its nodes. */
export interface ComparisonTimer {
  ms: number;
  /** How deep in nested comparisons the tree is: only the outermost one is timed. */
  depth: number;
}

/**
 * A new value, the old value it corresponds to (`undefined`/`null` when none), and their schema
 * (`S`: the compiled `CustomSchemaNode` when made by `CompiledCustomSchema.correlate`).
 */
export class Correlation<S extends CorrelationSchema = CorrelationSchema> {
  private equal: boolean | undefined;
  private children: Map<string | number, Correlation<S> | null> | undefined;
  private mapList: MapList | undefined;
  private readonly timer: ComparisonTimer;

  constructor(
    /** The new value. */
    readonly value: unknown,
    /** The old value (`undefined` when the old object had none). */
    readonly oldValue: unknown,
    /** The schema of both. */
    readonly schema: S | undefined,
    /** The timer of the tree this node belongs to; a root makes its own. */
    timer?: ComparisonTimer,
  ) {
    this.timer = timer ?? { ms: 0, depth: 0 };
  }

  /** The time spent so far comparing new values with old ones anywhere in this node's tree, in seconds. */
  get comparisonSeconds(): number {
    return this.timer.ms / 1000;
  }

  private cached(slot: string | number, make: () => Correlation<S> | undefined): Correlation<S> | undefined {
    const hit = this.children?.get(slot);
    if (hit !== undefined) return hit ?? undefined;
    const made = make();
    (this.children ??= new Map()).set(slot, made ?? null);
    return made;
  }

  /** The correlation of property (or map key) `field`, or undefined when the old object lacks it or the schema does not describe it. */
  key(field: string): Correlation<S> | undefined {
    const schema = this.schema;
    if (!schema) return undefined;
    return this.cached(field, () => {
      if (!isMap(this.value) || !isMap(this.oldValue)) return undefined;
      const value = getOwn(this.value, field);
      const oldValue = getOwn(this.oldValue, field);
      if (value === undefined || oldValue === undefined) return undefined;
      const sub = (schema.properties?.get(field) ?? schema.additionalProperties?.node) as S | undefined;
      return sub ? new Correlation<S>(value, oldValue, sub, this.timer) : undefined;
    });
  }

  /** The correlation of item `i` of a list: only map lists correlate items (by their keys). */
  index(i: number): Correlation<S> | undefined {
    const schema = this.schema;
    if (!schema) return undefined;
    return this.cached(i, () => {
      if (!Array.isArray(this.value) || i >= this.value.length) return undefined;
      const old = this.oldItemFor(i);
      if (isNil(old) || !schema.items) return undefined;
      return new Correlation<S>(this.value[i], old, schema.items as S, this.timer);
    });
  }

  private oldItemFor(i: number): unknown {
    const schema = this.schema!;
    if (!Array.isArray(this.oldValue) || !Array.isArray(this.value) || schema.listType !== 'map') return undefined;
    if (!this.mapList) {
      const usable = schema.type === 'array' && schema.listMapKeys.length > 0 && this.oldValue.length > 0;
      this.mapList = new MapList(usable ? schema.listMapKeys : [], this.oldValue);
    }
    return this.mapList.get(this.value[i]);
  }

  /** Whether the new value equals the old one, comparing through the correlations (Go's `CachedDeepEqual`). */
  deepEqual(): boolean {
    if (this.equal !== undefined) return this.equal;
    const timer = this.timer;
    const start = timer.depth === 0 ? performance.now() : 0;
    timer.depth++;
    try {
      this.equal = this.computeEqual();
    } finally {
      timer.depth--;
      if (timer.depth === 0) timer.ms += performance.now() - start;
    }
    return this.equal;
  }

  private computeEqual(): boolean {
    const value = this.value;
    const old = this.oldValue;
    if (isNil(value) && isNil(old)) return true;
    if (isNil(value) || isNil(old)) return false;
    const newIsArray = Array.isArray(value);
    const oldIsArray = Array.isArray(old);
    if (newIsArray !== oldIsArray || isMap(value) !== isMap(old)) return false;
    if (Array.isArray(value) && Array.isArray(old)) {
      if (value.length !== old.length) return false;
      for (let i = 0; i < value.length; i++) {
        const c = this.index(i);
        if (!c) return this.mapList === undefined ? jsonEqual(old, value) : false;
        if (!c.deepEqual()) return false;
      }
      return true;
    }
    if (isMap(value) && isMap(old)) {
      const keys = Object.keys(value).filter((k) => value[k] !== undefined);
      if (keys.length !== Object.keys(old).filter((k) => old[k] !== undefined).length) return false;
      for (const k of keys) {
        const c = this.key(k);
        if (!c || !c.deepEqual()) return false;
      }
      return true;
    }
    return goKind(value) === goKind(old) && value === old;
  }
}
