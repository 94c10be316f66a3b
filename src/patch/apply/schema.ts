/**
 * The structural schema seen the way structured-merge-diff sees a type (kube-openapi's
 * `schemaconv`): every node resolves to an "atom" with a scalar, list and/or map part.
 *
 * - structs are granular maps of their fields (atomic with `x-kubernetes-map-type: atomic`);
 * - maps are granular (or atomic) maps of their values;
 * - lists are atomic, sets (`x-kubernetes-list-type: set`) or map lists keyed by
 *   `x-kubernetes-list-map-keys`; without `x-kubernetes-list-type`, `patchStrategy: merge`
 *   with a merge key makes a map list keyed by it, `merge` without a key a set, anything else
 *   (including `retainKeys`) an atomic list;
 * - scalars, int-or-string and quantities are leaves;
 * - `RawExtension` is untyped and atomic; any other schemaless node is "deduced" from its value:
 *   a scalar leaf, an atomic list, or a granular map of deduced values.
 */
import type { StructuralNode } from '../../schema/structural.js';
import { isJsonObject } from '../../util/go-value.js';
import { type JsonValue } from './value.js';

/** A type reference: a structural node, one of SMD's built-in untyped types, or nothing known. */
export type TypeRef = StructuralNode | typeof DEDUCED | typeof UNTYPED_ATOMIC | undefined;

/** SMD's `__untyped_deduced_`. */
export const DEDUCED = Symbol('__untyped_deduced_');
/** SMD's `__untyped_atomic_`. */
export const UNTYPED_ATOMIC = Symbol('__untyped_atomic_');

/** The scalar kinds SMD validates. */
export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped';

/** The list part of an atom: atomic, a set (no keys) or a map list keyed by `keys`, with the type of its elements. */
export interface ListAtom {
  readonly atomic: boolean;
  /** Map-list keys; empty for a set. */
  readonly keys: readonly string[];
  readonly elem: TypeRef;
  /** Defaults of key fields (`protocol: TCP` for ports). */
  readonly keyDefaults: ReadonlyMap<string, JsonValue>;
}

export interface MapAtom {
  readonly atomic: boolean;
  /** Struct fields, when a struct. */
  readonly fields: ReadonlyMap<string, StructuralNode> | undefined;
  /** The type of keys that are not fields; `undefined` when there is none (a struct). */
  readonly elem: TypeRef;
}

/** What a type can be. Deduction picks one part from a value; the parts are shared objects so atoms compare by identity. */
export interface Atom {
  readonly scalar?: ScalarKind;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
  /** The atom with only its scalar part, only its list part, only its map part. */
  readonly onlyScalar?: Atom;
  readonly onlyList?: Atom;
  readonly onlyMap?: Atom;
}

const EMPTY_ATOM: Atom = {};

function finish(a: { scalar?: ScalarKind; list?: ListAtom; map?: MapAtom }): Atom {
  const parts = [a.scalar, a.list, a.map].filter((x) => x !== undefined).length;
  if (parts <= 1) return a;
  const atom: { -readonly [K in keyof Atom]: Atom[K] } = { ...a };
  if (a.scalar) atom.onlyScalar = { scalar: a.scalar };
  if (a.list) atom.onlyList = { list: a.list };
  if (a.map) atom.onlyMap = { map: a.map };
  return atom;
}

const UNTYPED_ATOMIC_ATOM: Atom = finish({
  scalar: 'untyped',
  list: { atomic: true, keys: [], elem: UNTYPED_ATOMIC, keyDefaults: new Map() },
  map: { atomic: true, fields: undefined, elem: UNTYPED_ATOMIC },
});

const DEDUCED_ATOM: Atom = finish({
  scalar: 'untyped',
  list: { atomic: true, keys: [], elem: UNTYPED_ATOMIC, keyDefaults: new Map() },
  map: { atomic: false, fields: undefined, elem: DEDUCED },
});

/**
 * Defaults of map-list key fields. The structural schema does not carry OpenAPI defaults; these
 * are the ones Kubernetes' OpenAPI declares on key fields (SMD fills them in when an item omits
 * the field, so `ports: [{containerPort: 80}]` is the item `[containerPort=80,protocol="TCP"]`).
 */
const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, JsonValue>>>> = {
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
};

function keyDefaults(elem: StructuralNode, keys: readonly string[]): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  const table = elem.id ? KEY_DEFAULTS[elem.id] : undefined;
  for (const k of keys) {
    const field = elem.type === 'object' ? elem.properties.get(k) : undefined;
    const own = field && (field as { default?: unknown }).default;
    if (own !== undefined) out.set(k, own as JsonValue);
    else if (table && Object.prototype.hasOwnProperty.call(table, k)) out.set(k, table[k]!);
  }
  return out;
}

/** SMD's list relationship for an array node (`getListElementRelationship`). */
export function listShape(node: StructuralNode): { atomic: boolean; keys: readonly string[] } {
  if (node.listType !== undefined) {
    if (node.listType === 'atomic') return { atomic: true, keys: [] };
    if (node.listType === 'set') return { atomic: false, keys: [] };
    return { atomic: false, keys: node.listMapKeys ?? [] };
  }
  const strategy = node.patchStrategy;
  if (strategy === 'merge' || strategy === 'merge,retainKeys') {
    return node.patchMergeKey ? { atomic: false, keys: [node.patchMergeKey] } : { atomic: false, keys: [] };
  }
  return { atomic: true, keys: [] };
}

function scalarKind(node: StructuralNode): ScalarKind {
  switch (node.type) {
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'string':
      return node.format === undefined || node.format === '' || node.format === 'byte' ? 'string' : 'untyped';
    default:
      return 'untyped';
  }
}

const cache = new WeakMap<object, Atom>();

/** The atom of a type. */
export function resolve(t: TypeRef): Atom {
  if (t === undefined) return EMPTY_ATOM;
  if (t === DEDUCED) return DEDUCED_ATOM;
  if (t === UNTYPED_ATOMIC) return UNTYPED_ATOMIC_ATOM;
  let atom = cache.get(t);
  if (atom) return atom;
  switch (t.type) {
    case 'object':
      atom = { map: { atomic: t.mapType === 'atomic', fields: t.properties, elem: undefined } };
      break;
    case 'map':
      atom = { map: { atomic: t.mapType === 'atomic', fields: undefined, elem: t.values } };
      break;
    case 'array': {
      const shape = listShape(t);
      atom = { list: { ...shape, elem: t.items, keyDefaults: keyDefaults(t.items, shape.keys) } };
      break;
    }
    case 'any':
      atom = t.id?.endsWith('runtime.RawExtension') ? UNTYPED_ATOMIC_ATOM : DEDUCED_ATOM;
      break;
    default:
      atom = { scalar: scalarKind(t) };
  }
  cache.set(t, atom);
  return atom;
}

/** SMD's `deduceAtom`: the part of the atom a value selects (the whole atom when none fits). */
export function deduce(atom: Atom, v: unknown): Atom {
  if (v === undefined || v === null) return atom;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return atom.scalar ? (atom.onlyScalar ?? atom) : atom;
  if (Array.isArray(v)) return atom.list ? (atom.onlyList ?? atom) : atom;
  if (isJsonObject(v)) return atom.map ? (atom.onlyMap ?? atom) : atom;
  return atom;
}

/** The type of a map's key `key`: the struct field's, else the map's value type. */
export function fieldType(map: MapAtom, key: string): TypeRef {
  const f = map.fields?.get(key);
  return f ?? map.elem;
}

/** Like {@link fieldType}, but an undeclared struct field is deduced rather than unknown (lenient walking of stored objects). */
export function fieldTypeLenient(map: MapAtom, key: string): TypeRef {
  return fieldType(map, key) ?? DEDUCED;
}
