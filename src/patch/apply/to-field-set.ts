/**
 * The set of fields an object sets, under a schema: structured-merge-diff's `TypedValue.ToFieldSet`.
 *
 * - a scalar, an atomic list and an atomic map are one leaf;
 * - a struct contributes its fields; a field is itself a member only when its value is `null` or
 *   `{}`; a key of a map (not a declared field) is always a member, plus whatever lies below it;
 * - a map-list item is a member (`[name="c"]`) plus its fields; a set item is a member
 *   (`[="x"]`); an item that appears more than once is a member only, its content not walked;
 * - a list itself is never a member (an empty granular list contributes nothing), except as a
 *   map key's value.
 */
import type { StructuralNode } from '../../schema/structural.js';
import { isJsonObject } from '../../util/go-value.js';
import { pathElement, PathElementMap, type FieldPath, type KeyField, type PathElement } from './field-path.js';
import { FieldSetBuilder, type FieldSet } from './field-set.js';
import { deduce, fieldTypeLenient, resolve, type ListAtom, type TypeRef } from './schema.js';
import { hasDefinedOwn, type JsonValue, ownKeys } from './value.js';

/** Why a list item has no path element. */
export class ListItemError extends Error {}

/** Go's `%q` of a `[]string`: `["name" "protocol"]`. */
function goQuoteList(keys: readonly string[]): string {
  return `[${keys.map((k) => JSON.stringify(k)).join(' ')}]`;
}

/** SMD's `listItemToPathElement`: the key (map list) or value (set) of an item. Throws {@link ListItemError}. */
export function listItemPathElement(list: ListAtom, item: unknown): PathElement {
  if (list.atomic) throw new ListItemError('invalid indexing of non-associative list');
  if (list.keys.length > 0) {
    if (item === null) throw new ListItemError('associative list with keys may not have a null element');
    if (!isJsonObject(item)) throw new ListItemError('associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const name of list.keys) {
      if (hasDefinedOwn(item, name)) fields.push({ name, value: item[name] as JsonValue });
      else if (list.keyDefaults.has(name)) fields.push({ name, value: list.keyDefaults.get(name)! });
    }
    if (fields.length === 0) {
      throw new ListItemError(
        `associative list with keys has an element that omits all key fields ${goQuoteList(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
    return pathElement.key(fields);
  }
  if (isJsonObject(item)) throw new ListItemError("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (item === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
  return pathElement.value(item as JsonValue);
}

/** The path element of a list item, or `undefined` when it has none. */
export function tryListItemPathElement(list: ListAtom, item: unknown): PathElement | undefined {
  try {
    return listItemPathElement(list, item);
  } catch (e) {
    if (e instanceof ListItemError) return undefined;
    throw e;
  }
}

function walk(v: unknown, t: TypeRef, path: PathElement[], out: FieldSetBuilder): void {
  const atom = deduce(resolve(t), v);
  if (atom.map) {
    const m = atom.map;
    if (m.atomic) {
      out.insert(path);
      return;
    }
    if (!isJsonObject(v)) return;
    for (const key of ownKeys(v)) {
      const val = v[key];
      const childPath = [...path, pathElement.field(key)];
      walk(val, fieldTypeLenient(m, key), childPath, out);
      if (val === null || (isJsonObject(val) && ownKeys(val).length === 0)) out.insert(childPath);
      else if (!m.fields?.has(key)) out.insert(childPath);
    }
    return;
  }
  if (atom.scalar) {
    out.insert(path);
    return;
  }
  if (atom.list) {
    const l = atom.list;
    if (l.atomic) {
      out.insert(path);
      return;
    }
    if (!Array.isArray(v)) return;
    const pes = v.map((item) => tryListItemPathElement(l, item));
    const seen = new PathElementMap<true>();
    const duplicates = new PathElementMap<true>();
    for (const pe of pes) {
      if (!pe) continue;
      if (seen.has(pe)) {
        if (!duplicates.has(pe)) {
          out.insert([...path, pe]);
          duplicates.set(pe, true);
        }
      } else seen.set(pe, true);
    }
    v.forEach((item, i) => {
      const pe = pes[i];
      if (!pe || duplicates.has(pe)) return;
      const childPath = [...path, pe];
      walk(item, l.elem, childPath, out);
      out.insert(childPath);
    });
  }
}

/** The fields set in `value` under `schema` (SMD's `ToFieldSet`). */
export function toFieldSet(value: unknown, schema: StructuralNode | TypeRef): FieldSet {
  const out = new FieldSetBuilder();
  walk(value, schema, [], out);
  return out.build();
}

/** The paths of {@link toFieldSet}, for convenience. */
export function fieldPathsOf(value: unknown, schema: StructuralNode): FieldPath[] {
  return toFieldSet(value, schema).paths();
}
