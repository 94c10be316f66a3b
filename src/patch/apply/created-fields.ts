/**
 * The fields a create owns, in one walk of the new object.
 *
 * On create, Kubernetes' field manager compares the empty Go object with the new one
 * (`FieldManager.Update` with an empty live object; SMD `TypedValue.Compare`) and gives the writer
 * every field added or modified, without the server-owned metadata. The general path
 * ({@link compareObjects} in update.ts) first copies the new object into its Go form (zero values
 * filled in, empty `omitempty` fields dropped), then compares it with the empty one path by path
 * into field-set tries, then writes the FieldsV1 document. This walk reads the new object once
 * beside the empty one and writes the FieldsV1 document directly.
 *
 * It covers objects whose values have the types their schema declares, which is what decoding
 * leaves. Anything else (a schemaless or untyped node, a field the schema does not know, a value of
 * another type than declared, a map-list item whose key field would be filled in) makes it give
 * up, and the caller takes the general path, which handles everything.
 */
import type { ArrayNode, MapNode, StructNode, StructuralNode } from '../../schema/structural.js';
import { compareGoStrings } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';
import { jsonEqual } from '../../util/json-equal.js';
import { comparePathElements, serializePathElement, type PathElement } from './field-path.js';
import { FIELDS_V1_LEAF, type FieldSet } from './field-set.js';
import { isNonPointerStruct, isNonPointerTime, omittedWhenEmpty, zeroOf } from './go-zero.js';
import { resolve } from './schema.js';
import { tryListItemPathElement } from './to-field-set.js';
import { deepFreeze } from '../../storage/freeze.js';
import { flatString } from '../../util/flat-string.js';
import { getOwn } from '../../util/own.js';
import { hasDefinedOwn, ownKeys } from './value.js';

/** Returned when the walk cannot tell the fields exactly: take the general path. */
export const GENERAL_PATH = Symbol('general path');

/**
 * What a create owns at one path and below: whether the path itself is a member, and the elements
 * below it. Struct and map levels have field names as keys (`f:` + name), list levels the FieldsV1
 * keys of their items.
 */
interface Owned {
  member: boolean;
  below: Below[] | undefined;
}

interface Below {
  /** The FieldsV1 key: `f:name`, `k:{...}`, `v:...`. */
  readonly key: string;
  /** The element, for list items (their order is SMD's element order); undefined for a field. */
  readonly pe: PathElement | undefined;
  /** The field name, for fields (ordered as Go orders strings). */
  readonly name: string;
  readonly owned: Owned;
}

class GeneralPath extends Error {}
const giveUp = new GeneralPath();

const MEMBER_ONLY: Owned = { member: true, below: undefined };

/** The root fields no manager owns as members (`stripMetaManager`); metadata's are below. */
const STRIPPED_ROOT = new Set(['apiVersion', 'kind', 'metadata']);
const STRIPPED_METADATA = new Set([
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
]);

/**
 * The FieldsV1 document of the fields a create of `obj` owns under `schema`, compared with
 * `empty` (the empty object in its Go form, {@link withGoZeroValues} of `{}`): what
 * `compare(empty, goForm(obj))` reports added or modified, without the stripped metadata and
 * without `ignoredRoots` (top-level fields the strategy resets, with all below them). `obj`'s
 * `metadata.managedFields` are not looked at. `{}` when the create owns nothing;
 * {@link GENERAL_PATH} when the object is outside what this walk covers.
 */
export function createdFieldsV1(
  obj: Record<string, unknown>,
  schema: StructuralNode,
  empty: unknown,
  ignoredRoots: ReadonlySet<string>,
): Record<string, unknown> | typeof GENERAL_PATH {
  if (schema.type !== 'object' || !isJsonObject(empty)) return GENERAL_PATH;
  let root: Owned | undefined;
  try {
    root = ownedStruct(empty, obj, schema, true, STRIPPED_ROOT);
  } catch (e) {
    if (e === giveUp) return GENERAL_PATH;
    throw e;
  }
  const below = root?.below;
  if (!below) return {};
  const kept: Below[] = [];
  for (const b of below) {
    if (ignoredRoots.has(b.name)) continue;
    if (!STRIPPED_ROOT.has(b.name)) kept.push(b);
    else if (b.name !== 'metadata') {
      const stripped = withoutMember(b);
      if (stripped) kept.push(stripped);
    } else {
      const meta: Below[] = [];
      for (const m of b.owned.below ?? []) {
        const one = STRIPPED_METADATA.has(m.name) ? withoutMember(m) : m;
        if (one) meta.push(one);
      }
      if (meta.length > 0) kept.push({ ...b, owned: { member: false, below: meta } });
    }
  }
  return emitBelow(kept);
}

/** `b` no longer a member itself (FieldSet `difference`): what is below it stays; nothing when nothing is. */
function withoutMember(b: Below): Below | undefined {
  return b.owned.below ? { ...b, owned: { member: false, below: b.owned.below } } : undefined;
}

/** The top-level field names of a reset-fields set, when every path in it is one; else undefined. */
export function topLevelNames(ignored: FieldSet | undefined): ReadonlySet<string> | undefined {
  if (!ignored || ignored.empty) return NO_NAMES;
  const names = new Set<string>();
  for (const path of ignored) {
    const pe = path[0];
    if (path.length !== 1 || pe?.kind !== 'field') return undefined;
    names.add(pe.name);
  }
  return names;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** `compareNode(z, goForm(v), node)`, added and modified only; `v` is present. */
function owned(z: unknown, v: unknown, node: StructuralNode): Owned | undefined {
  switch (node.type) {
    case 'object':
      if (!isJsonObject(v)) throw giveUp;
      return ownedStruct(z, v, node, false);
    case 'map':
      return ownedMap(z, v, node);
    case 'array':
      return ownedList(z, v, node);
    case 'any':
      throw giveUp;
    default:
      // A scalar is a leaf: owned when new, or when it differs from the zero value.
      return z === undefined || !jsonEqual(z, v) ? MEMBER_ONLY : undefined;
  }
}

/**
 * A struct, compared field by field. `strip`: scalar fields whose ownership is stripped anyway
 * (they are walked past, still counted as present); `absent`: a field seen as not there.
 */
function ownedStruct(z: unknown, v: Record<string, unknown>, node: StructNode, root: boolean, strip?: ReadonlySet<string>, absent?: string): Owned | undefined {
  if (z !== undefined && !isJsonObject(z)) throw giveUp;
  if (resolve(node).map?.atomic) {
    // An atomic struct is a leaf; the empty object holds one only as null, or not at all.
    if (z === undefined || z === null) return MEMBER_ONLY;
    throw giveUp;
  }
  let below: Below[] | undefined;
  let fields = 0;
  for (const k of ownKeys(v)) {
    if (k === absent) continue;
    const child = node.properties.get(k);
    if (!child) throw giveUp;
    const value = v[k];
    if (!node.required.has(k) && !isNonPointerStruct(node, k, root) && omittedWhenEmpty(child, value)) continue;
    fields++;
    if (strip?.has(k) && isScalar(child)) continue;
    const zk = z === undefined ? undefined : getOwn(z, k);
    const o = root && k === 'metadata' ? ownedMetadata(zk, value, child) : owned(zk, value, child);
    if (o) (below ??= []).push({ key: fieldKey(node, k), pe: undefined, name: k, owned: o });
  }
  // The fields a Go struct has although the object did not carry them: equal to the empty
  // object's where it has this struct; all new where it does not.
  for (const { name, key, child, zero } of zeroFilled(node, root)) {
    if (name !== absent && hasDefinedOwn(v, name)) continue;
    fields++;
    if (z !== undefined || (strip?.has(name) && isScalar(child))) continue;
    const o = owned(undefined, zero, child);
    if (o) (below ??= []).push({ key, pe: undefined, name, owned: o });
  }
  if (z === undefined) return below ? { member: true, below } : MEMBER_ONLY;
  // Both sides empty: compared as one leaf, equal.
  if (fields === 0 && ownKeys(z).length === 0) return undefined;
  return below ? { member: false, below } : undefined;
}

/** The root's `metadata`: its `managedFields` are what is being written, so not looked at. */
function ownedMetadata(z: unknown, v: unknown, node: StructuralNode): Owned | undefined {
  if (node.type !== 'object' || !isJsonObject(v)) throw giveUp;
  return ownedStruct(z, v, node, false, STRIPPED_METADATA, 'managedFields');
}

/** A leaf type: its field is one member, never a level. */
function isScalar(node: StructuralNode): boolean {
  return node.type !== 'object' && node.type !== 'map' && node.type !== 'array' && node.type !== 'any';
}

const fieldKeys = new WeakMap<StructNode, Map<string, string>>();

/** `f:<name>` for a field a schema declares: made once, the same string for every object. */
function fieldKey(node: StructNode, name: string): string {
  let keys = fieldKeys.get(node);
  if (!keys) fieldKeys.set(node, (keys = new Map()));
  let key = keys.get(name);
  if (key === undefined) keys.set(name, (key = flatString(`f:${name}`)));
  return key;
}

interface ZeroFilled {
  readonly name: string;
  readonly key: string;
  readonly child: StructuralNode;
  readonly zero: unknown;
}

const zeroFilledFields = [new WeakMap<StructNode, readonly ZeroFilled[]>(), new WeakMap<StructNode, readonly ZeroFilled[]>()];

/**
 * The fields the Go form of a struct holds when the object leaves them out (go-zero.ts `fillStruct`),
 * with their zero values: non-pointer times and structs and fields without `omitempty`. The same
 * for every object of a schema, so found once.
 */
function zeroFilled(node: StructNode, root: boolean): readonly ZeroFilled[] {
  const cache = zeroFilledFields[root ? 1 : 0]!;
  let fields = cache.get(node);
  if (fields) return fields;
  const found: ZeroFilled[] = [];
  for (const [name, child] of node.properties) {
    if (isNonPointerTime(node, name)) found.push({ name, key: fieldKey(node, name), child, zero: null });
    else {
      const nonPointer = isNonPointerStruct(node, name, root);
      if (!nonPointer && !node.required.has(name)) continue;
      const zero = zeroOf(child, nonPointer);
      if (zero !== undefined) found.push({ name, key: fieldKey(node, name), child, zero: deepFreeze(zero) });
    }
  }
  fields = found;
  cache.set(node, fields);
  return fields;
}

function ownedMap(z: unknown, v: unknown, node: MapNode): Owned | undefined {
  if (!isJsonObject(v) || (z !== undefined && z !== null)) throw giveUp;
  const keys = ownKeys(v);
  // An atomic or empty map is a leaf, and null (or nothing) on the empty side.
  if (keys.length === 0 || resolve(node).map?.atomic) return MEMBER_ONLY;
  const below: Below[] = [];
  for (const k of keys) {
    const o = owned(undefined, v[k], node.values);
    if (o) below.push({ key: memberKey(k), pe: undefined, name: k, owned: o });
  }
  return level(z === undefined, below);
}

/** The `f:<key>` strings of the map keys written lately, by key. */
const memberKeys = new Map<string, string>();
/** Map keys held in {@link memberKeys}: enough for every label, annotation and data key a cluster repeats. */
const MEMBER_KEYS_HELD = 4096;

/**
 * `f:<key>` for a key of a map. Objects of a kind repeat their maps' keys (labels, annotations, a
 * ConfigMap's data), so the string is made once and reused: each FieldsV1 document then sets its
 * member with a string V8 has already made a property name, instead of a new one it must look up.
 */
function memberKey(k: string): string {
  let key = memberKeys.get(k);
  if (key === undefined) {
    if (memberKeys.size >= MEMBER_KEYS_HELD) memberKeys.clear();
    memberKeys.set(k, (key = `f:${k}`));
  }
  return key;
}

function ownedList(z: unknown, v: unknown, node: ArrayNode): Owned | undefined {
  if (!Array.isArray(v) || (z !== undefined && z !== null)) throw giveUp;
  const list = resolve(node).list;
  if (!list) throw giveUp;
  // An atomic or empty list is a leaf, and null (or nothing) on the empty side.
  if (list.atomic || v.length === 0) return MEMBER_ONLY;
  const items = node.items;
  if (list.keys.length > 0 && items.type === 'object') {
    for (const item of v) {
      if (!isJsonObject(item)) continue;
      for (const key of list.keys) {
        const value = item[key];
        // The Go form's item would have another key (a zero value filled in, a null dropped).
        if (value === undefined ? items.required.has(key) : typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw giveUp;
      }
    }
  }
  const byKey = new Map<string, { pe: PathElement; items: unknown[] }>();
  for (const item of v) {
    const pe = tryListItemPathElement(list, item);
    if (!pe) continue;
    const key = serializePathElement(pe);
    const seen = byKey.get(key);
    if (seen) seen.items.push(item);
    else byKey.set(key, { pe, items: [item] });
  }
  const below: Below[] = [];
  for (const [key, { pe, items: same }] of byKey) {
    // An item given more than once is owned as a whole, its content not compared.
    const o = same.length === 1 ? owned(undefined, same[0], items) : MEMBER_ONLY;
    if (o) below.push({ key, pe, name: '', owned: o });
  }
  return level(z === undefined, below);
}

/** A level that is new (`member`) or holds what was found below it; nothing when neither. */
function level(member: boolean, below: Below[]): Owned | undefined {
  if (below.length > 0) return { member, below };
  return member ? MEMBER_ONLY : undefined;
}

function byElement(a: Below, b: Below): number {
  return a.pe && b.pe ? comparePathElements(a.pe, b.pe) : compareGoStrings(a.name, b.name);
}

function sorted(below: Below[]): Below[] {
  for (let i = 1; i < below.length; i++) {
    if (byElement(below[i - 1]!, below[i]!) > 0) return below.sort(byElement);
  }
  return below;
}

/** A level of the FieldsV1 document into `out`, keys in SMD's element order (a member with fields below has `.` first). */
function emitBelow(below: Below[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const b of sorted(below)) {
    const o = b.owned;
    if (!o.below) out[b.key] = FIELDS_V1_LEAF;
    else out[b.key] = emitBelow(o.below, o.member ? { '.': FIELDS_V1_LEAF } : {});
  }
  return out;
}
