/**
 * The strategic-merge-patch view of a structural schema, and the error values the SMP code of
 * k8s.io/apimachinery (pkg/util/strategicpatch, pkg/util/mergepatch) produces.
 *
 * The apiserver looks patch metadata up in the Go struct tags of the kind
 * (`strategicpatch.NewPatchMetaFromStruct`, lookups by `forkedjson.LookupPatchMetadataForStruct`).
 * Our structural schema carries the same facts (`x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` are generated from those tags). The lookup behaves like Go's:
 *
 * - A struct field is found by its JSON name, case-insensitively when no exact match exists.
 * - A key that is not a field of the struct fails with
 *   `unable to find api field in struct PodSpec for the json field "foo"` (500). This happens
 *   only when the lookup is needed: both the object and the patch hold a map or a list at that
 *   key, or a `$setElementOrder/foo` names it. An unknown key whose value is simply taken from the
 *   patch needs no lookup (the decoder then drops or reports the unknown field).
 * - Looking into a map-typed field (`labels`, `resources.limits`) fails with
 *   `merging an object in json but data type is not struct, instead is: map`; a struct with no
 *   JSON fields (RawExtension, FieldsV1, IntOrString, Quantity) fails like an unknown field.
 * - A field with no `patchStrategy` tag merges like any map when it is a struct or map, and is
 *   replaced when it is a list: strategies are read from the tag only; `x-kubernetes-list-type`
 *   plays no part in SMP (so `hostIPs`, atomic for apply, still merges by `ip`).
 */
import type { StructuralNode } from '../schema/structural.js';
import { ERR_NO_LIST_OF_LISTS, PatchError, smpServerError } from './errors.js';
import { goPrintString, goPrintValue } from '../util/go-print.js';
import { goKind, GoPanic, goTypeName, isJsonObject, type JsonObject, memberScalarKey, scalarKey } from '../util/go-value.js';
import { hasOwn } from '../util/own.js';
import { goQuote } from '../util/go-format.js';

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';
export const REPLACE_DIRECTIVE = 'replace';
export const MERGE_DIRECTIVE = 'merge';
export const RETAIN_KEYS_STRATEGY = 'retainKeys';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** The patch strategy and merge key of a field. */
export interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

function goStructName(node: StructuralNode): string {
  const id = node.id ?? '';
  return id.slice(id.lastIndexOf('.') + 1);
}

/** `reflect.Kind` name of a field type, as `%s` prints it. */
function goKindName(node: StructuralNode): string {
  switch (node.type) {
    case 'map':
      return 'map';
    case 'array':
      return 'slice';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    default:
      return 'struct';
  }
}

/** `LookupPatchMeta` over a structural schema node (a struct, map, list element...). */
export class PatchSchema {
  constructor(readonly node: StructuralNode) {}

  /** `LookupPatchMetadataForStruct`: the field's schema and patch metadata. */
  lookupStruct(key: string): [PatchSchema, PatchMeta] {
    const node = this.node;
    if (node.type === 'object' || node.type === 'any' || node.type === 'int-or-string') {
      const props = node.type === 'object' ? node.properties : new Map<string, StructuralNode>();
      let field = props.get(key);
      if (!field) {
        const lower = key.toLowerCase();
        for (const [name, p] of props) {
          if (name.toLowerCase() === lower) {
            field = p;
            break;
          }
        }
      }
      if (!field) {
        throw smpServerError(`unable to find api field in struct ${goStructName(node)} for the json field ${goQuote(key)}`);
      }
      return [new PatchSchema(field), { strategies: (field.patchStrategy ?? '').split(','), mergeKey: field.patchMergeKey ?? '' }];
    }
    throw smpServerError(`merging an object in json but data type is not struct, instead is: ${goKindName(node)}`);
  }

  /** `LookupPatchMetadataForSlice`: the element schema of a list field and its patch metadata. */
  lookupSlice(key: string): [PatchSchema, PatchMeta] {
    const [sub, meta] = this.lookupStruct(key);
    if (sub.node.type !== 'array') {
      // Go prints the kind of the containing type here (its own bug), i.e. "struct".
      throw smpServerError('expected slice or array type, but got: struct');
    }
    if (sub.node.items.type === 'array') throw smpServerError('unexpected slice of slice');
    return [new PatchSchema(sub.node.items), meta];
  }

  /** `Name()`: the Go kind of this type. */
  name(): string {
    return goKindName(this.node);
  }
}

/** `extractRetainKeysPatchStrategy`: [has retainKeys, the other strategy]. */
export function extractRetainKeysPatchStrategy(strategies: string[]): [boolean, string] {
  switch (strategies.length) {
    case 0:
      return [false, ''];
    case 1:
      return strategies[0] === RETAIN_KEYS_STRATEGY ? [true, ''] : [false, strategies[0]!];
    case 2:
      if (strategies[0] === RETAIN_KEYS_STRATEGY) return [true, strategies[1]!];
      if (strategies[1] === RETAIN_KEYS_STRATEGY) return [true, strategies[0]!];
      break;
  }
  throw smpServerError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

// --- mergepatch errors --------------------------------------------------------------------------

/** `mergepatch.ErrNoMergeKey`. */
export function errNoMergeKey(m: unknown, key: string): PatchError {
  return smpServerError(`map: ${goPrintValue(m)} does not contain declared merge key: ${key}`);
}

/** `mergepatch.ErrBadArgType(expected, actual)` for an expected map or slice. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): PatchError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return smpServerError(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

/** `mergepatch.ErrBadPatchType`: `unknown patch type: %s in map: %v`. */
export function errBadPatchType(directive: unknown, m: JsonObject): PatchError {
  return smpServerError(`unknown patch type: ${goPrintString(directive)} in map: ${goPrintValue(m)}`);
}

/**
 * `sliceElementType`: the one Go type of all elements of the given slices. Mixed types fail with
 * `list element types are not identical: [[a b] [1]]`, nested lists with ErrNoListOfLists (422),
 * empty input with `no elements in any of the given slices`; a null first element panics.
 */
export function sliceElementType(...slices: unknown[][]): ReturnType<typeof goKind> {
  let prev: ReturnType<typeof goKind> | undefined;
  for (const s of slices) {
    for (const v of s) {
      const cur = goKind(v);
      if (prev === undefined) {
        if (cur === 'nil') throw new GoPanic('runtime error: invalid memory address or nil pointer dereference');
        prev = cur;
        if (prev === 'slice') throw new PatchError('unprocessable', ERR_NO_LIST_OF_LISTS);
      } else if (prev !== cur) {
        throw smpServerError(`list element types are not identical: ${goPrintValue(slices)}`);
      }
    }
  }
  if (prev === undefined) throw smpServerError('no elements in any of the given slices');
  return prev;
}

/** A map element's merge-key value as a lookup key: {@link memberScalarKey}, or the Go kind of a map or slice. */
function keyKind(el: JsonObject, mergeKey: string): string {
  return memberScalarKey(el, mergeKey) ?? goKind(el[mergeKey]);
}

/**
 * Lookup by merge-key value with the exact outcome of Go's `findMapInSliceBasedOnKeyValue`
 * (the first element, in order, that is not a map fails with `value for key <i> is not a map`;
 * comparing two maps or two slices panics; a missing key never matches), in O(1) per lookup.
 * Elements may be appended, and re-noted after being merged in place.
 */
export class MergeKeyIndex {
  private first = new Map<string, number>();
  private firstContainer = new Map<string, number>();
  private firstNonMap = -1;
  private keys: Array<string | undefined> = [];

  constructor(
    private readonly list: unknown[],
    private readonly mergeKey: string,
  ) {
    this.rebuild();
  }

  private keyOf(i: number): string | undefined {
    const el = this.list[i];
    if (!isJsonObject(el)) return '!';
    return hasOwn(el, this.mergeKey) ? keyKind(el, this.mergeKey) : undefined;
  }

  private note(i: number): void {
    const k = this.keyOf(i);
    this.keys[i] = k;
    if (k === undefined) return;
    if (k === '!') {
      if (this.firstNonMap < 0) this.firstNonMap = i;
    } else if (k === 'map' || k === 'slice') {
      if (!this.firstContainer.has(k)) this.firstContainer.set(k, i);
    } else if (!this.first.has(k)) this.first.set(k, i);
  }

  private rebuild(): void {
    this.first.clear();
    this.firstContainer.clear();
    this.firstNonMap = -1;
    this.keys = [];
    for (let i = 0; i < this.list.length; i++) this.note(i);
  }

  /** Call after pushing an element onto the list. */
  appended(): void {
    this.note(this.list.length - 1);
  }

  /** Call after the element at i was changed in place. */
  changed(i: number): void {
    if (this.keyOf(i) !== this.keys[i]) this.rebuild();
  }

  /** The index of the element whose merge key equals the merge key of `holder` (which has one), or -1. */
  find(holder: JsonObject): number {
    const value = holder[this.mergeKey];
    const sk = memberScalarKey(holder, this.mergeKey);
    const match = sk === undefined ? -1 : (this.first.get(sk) ?? -1);
    const panicAt = sk === undefined ? (this.firstContainer.get(goKind(value)) ?? -1) : -1;
    const candidates = [match, panicAt, this.firstNonMap].filter((i) => i >= 0);
    if (!candidates.length) return -1;
    const at = Math.min(...candidates);
    if (at === this.firstNonMap) throw smpServerError(`value for key ${at} is not a map`);
    if (at === panicAt) throw new GoPanic(`runtime error: comparing uncomparable type ${goTypeName(value)}`);
    return match;
  }
}

/**
 * Go's `index(list, item, mergeKey, kind)`: the first position whose merge-key value (or, for
 * lists of scalars, whose value) `==` the item's; O(1) per lookup with the same panics.
 */
export function makeIndexer(list: unknown[], mergeKey: string, kind: string): (item: unknown) => number {
  const hasKey = (item: unknown): item is JsonObject => kind === 'map' && isJsonObject(item) && hasOwn(item, mergeKey);
  const val = (item: unknown): unknown => (kind === 'map' ? (hasKey(item) ? item[mergeKey] : null) : item);
  // A merge key the patch wrote as `80.0` is a float64, which `==` never finds equal to an int64.
  const key = (item: unknown): string | undefined => (hasKey(item) ? memberScalarKey(item, mergeKey) : scalarKey(val(item)));
  const first = new Map<string, number>();
  const firstContainer = new Map<string, number>();
  list.forEach((item, i) => {
    const v = val(item);
    const sk = key(item);
    if (sk === undefined) {
      if (!firstContainer.has(goKind(v))) firstContainer.set(goKind(v), i);
    } else if (!first.has(sk)) first.set(sk, i);
  });
  return (item) => {
    const v = val(item);
    const sk = key(item);
    if (sk !== undefined) return first.get(sk) ?? -1;
    if (firstContainer.has(goKind(v))) throw new GoPanic(`runtime error: comparing uncomparable type ${goTypeName(v)}`);
    return -1;
  };
}

/** A panicking Go map insertion/lookup with an unhashable key. */
export function hashKey(v: unknown): string {
  const sk = scalarKey(v);
  if (sk === undefined) throw new GoPanic(`runtime error: hash of unhashable type ${goTypeName(v)}`);
  return sk;
}
