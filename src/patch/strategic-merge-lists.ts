/**
 * Merging lists in a strategic merge patch (k8s.io/apimachinery pkg/util/strategicpatch
 * `mergeSlice` and the order helpers), reproduced with Kubernetes' results, including order:
 *
 * - Lists of scalars with `patchStrategy: merge` are unions without duplicates; a
 *   `$deleteFromPrimitiveList/<field>` list removes values.
 * - Lists of maps with `patchStrategy: merge` are merged element by element on `patchMergeKey`;
 *   an element `{<key>: v, $patch: delete}` deletes every element with that key, an element
 *   `{$patch: replace}` replaces the list with the patch's other elements, `$patch: merge` fails
 *   with `merging lists cannot yet be specified in the patch`, other values fail with
 *   `unknown patch type: ...`. An element without the merge key fails with
 *   `map: map[...] does not contain declared merge key: <key>`.
 * - Order of the result (normalizeElementOrder/mergeSortedSlice): the patch's elements keep the
 *   patch's order, the other (server-only) elements keep the live order, and both are
 *   interleaved by live position; an element that is new (not in the live list) goes before the
 *   live elements that remain to be placed. So adding a container without `$setElementOrder`
 *   puts it first.
 */
import { smpServerError } from './errors.js';
import { goSliceStable } from '../util/go-sort.js';
import { goKind, GoPanic, isJsonObject, type JsonObject, memberScalarKey, scalarKey } from '../util/go-value.js';
import { hasOwn } from '../util/own.js';
import {
  DELETE_DIRECTIVE,
  DIRECTIVE_MARKER,
  MERGE_DIRECTIVE,
  MergeKeyIndex,
  REPLACE_DIRECTIVE,
  errBadArgType,
  errBadPatchType,
  errNoMergeKey,
  hashKey,
  makeIndexer,
  sliceElementType,
  type PatchSchema,
} from './strategic-merge-meta.js';

/** `MergeOptions` of the Go code. */
export interface MergeOptions {
  /** Apply `$deleteFromPrimitiveList` and `$setElementOrder` (true server-side). */
  mergeParallelList: boolean;
  /** Drop `null`s that match nothing (true server-side). */
  ignoreUnmatchedNulls: boolean;
}

/** The map merge the list merge recurses into. */
export type MergeMapFn = (original: JsonObject, patch: JsonObject, schema: PatchSchema, options: MergeOptions) => JsonObject;

/** `validateMergeKeyInLists`. */
export function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw errBadArgType('map', item);
      if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** `extractToDeleteItems`: [kept, `$patch: delete` elements]. */
export function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const del: unknown[] = [];
  for (const v of list) {
    if (!isJsonObject(v)) throw errBadArgType('map', v);
    if (hasOwn(v, DIRECTIVE_MARKER) && v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) del.push(v);
    else keep.push(v);
  }
  return [keep, del];
}

/** `normalizeSliceOrder`: sort `toSort` by position in `order` (SliceStable, "not found" first). */
export function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: string): unknown[] {
  let toDelete: unknown[] = [];
  let items = toSort.slice();
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    [items, toDelete] = extractToDeleteItems(items);
  }
  const index = makeIndexer(order, mergeKey, kind);
  goSliceStable(items, (a, b) => {
    const ia = index(a);
    if (ia >= 0) {
      const ib = index(b);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return items.concat(toDelete);
}

/** `mergeSortedSlice`: interleave server-only items (left) into patch items (right). */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: string): unknown[] {
  const index = makeIndexer(serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = index(left[i]);
      const ri = index(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** `normalizeElementOrder`. */
export function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: string,
): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** `partitionPrimitivesByPresentInList` (a Go map: unhashable values panic). */
export function partitionPrimitivesByPresentInList(original: unknown[], partitionBy: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set<string>();
  for (const v of partitionBy) inPatch.add(hashKey(v));
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) (inPatch.has(hashKey(v)) ? patch : serverOnly).push(v);
  return [patch, serverOnly];
}

/** `partitionMapsByPresentInList`. */
export function partitionMapsByPresentInList(original: unknown[], partitionBy: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const index = new MergeKeyIndex(partitionBy, mergeKey);
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) {
    if (!isJsonObject(v)) throw errBadArgType('map', v);
    if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (index.find(v) >= 0 ? patch : serverOnly).push(v);
  }
  return [patch, serverOnly];
}

/** `deleteFromSlice`: drop the values of a `$deleteFromPrimitiveList` list. */
function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const drop = new Set<string>();
  for (const v of toDelete) drop.add(hashKey(v));
  return current.filter((v) => !drop.has(hashKey(v)));
}

/** Scalars without duplicates (the order is irrelevant: the caller sorts by a total order). */
function uniqueScalars(list: unknown[]): unknown[] {
  const seen = new Set<string>();
  return list.filter((v) => {
    const k = hashKey(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Go's `deduplicateScalars` exactly (its swap-with-last order), for patches kubectl computes
 * (`$deleteFromPrimitiveList` lists), where the order is visible.
 */
export function deduplicateScalarsGo(input: unknown[]): unknown[] {
  const s = input.slice();
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (scalarKey(s[i]) === scalarKey(s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

/**
 * What Go's slices share: `deleteMatchingEntries` deletes with `append(s[:i], s[i+1:]...)`,
 * shifting the live list's backing array in place, and the merge then `append`s new elements
 * into the freed slots. The caller that still holds the live list (`$setElementOrder` handling
 * uses it as the reference order) therefore sees [kept elements, appended or stale elements].
 * Only the first n slots are visible, so the result does not depend on the slice capacity.
 */
interface Backing {
  /** The live list's n slots as Go leaves them. */
  slots: unknown[];
  /** Slots [0, alive) hold the kept elements. */
  alive: number;
}

/** `mergeSliceWithSpecialElements`: apply `$patch` elements; returns [original, patch, backing]. */
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[], Backing] {
  const without: unknown[] = [];
  let replace = false;
  const n = original.length;
  const alive = new Array<boolean>(n).fill(true);
  const byKey = new Map<string, number[]>();
  original.forEach((o, i) => {
    if (!isJsonObject(o) || !hasOwn(o, mergeKey)) return;
    const sk = memberScalarKey(o, mergeKey);
    if (sk === undefined) return;
    const list = byKey.get(sk);
    if (list) list.push(i);
    else byKey.set(sk, [i]);
  });
  const frozen = new Array<unknown>(n);
  let length = n;
  let last = n - 1;
  for (const v of patch) {
    const typed = v as JsonObject;
    if (!hasOwn(typed, DIRECTIVE_MARKER)) {
      without.push(v);
      continue;
    }
    const directive = typed[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!hasOwn(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
      const value = typed[mergeKey];
      const sk = memberScalarKey(typed, mergeKey);
      if (sk === undefined) {
        // deleteMatchingEntries compares the key with == : two maps (or slices) panic.
        const kind = goKind(value);
        if (original.some((o, i) => alive[i] && isJsonObject(o) && hasOwn(o, mergeKey) && goKind(o[mergeKey]) === kind)) {
          throw new GoPanic(`runtime error: comparing uncomparable type`);
        }
        continue;
      }
      // Delete every match, first match first; each deletion freezes slot length-1 with the
      // list's current last element.
      for (const i of byKey.get(sk) ?? []) {
        if (!alive[i]) continue;
        while (!alive[last]) last--;
        frozen[length - 1] = original[last];
        alive[i] = false;
        length--;
      }
      byKey.delete(sk);
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw smpServerError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, typed);
    }
  }
  const kept = length === n ? original : original.filter((_, i) => alive[i]);
  const backing: Backing = { slots: kept.concat(frozen.slice(length)), alive: length };
  if (replace) return [without, [], backing];
  return [kept, without, backing];
}

/** `mergeSliceWithoutSpecialElements`: merge elements by key, append new ones. */
function mergeSliceWithoutSpecialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  schema: PatchSchema,
  options: MergeOptions,
  mergeMap: MergeMapFn,
  backing: Backing | undefined,
): unknown[] {
  const out = original.slice();
  const index = new MergeKeyIndex(out, mergeKey);
  for (const v of patch) {
    const typed = v as JsonObject;
    if (!hasOwn(typed, mergeKey)) throw errNoMergeKey(typed, mergeKey);
    const at = index.find(typed);
    if (at >= 0) {
      out[at] = mergeMap(out[at] as JsonObject, typed, schema, options);
      index.changed(at);
    } else {
      // Go's append writes into the shared backing array while there is room.
      if (backing && out.length < backing.slots.length && out.length >= backing.alive) backing.slots[out.length] = v;
      out.push(v);
      index.appended();
    }
  }
  return out;
}

/** Receives the live list as Go's caller sees it after the merge (see {@link Backing}). */
export interface LiveListView {
  slots?: unknown[];
}

/** `mergeSlice`: merge two lists under `patchStrategy: merge` (or a delete list). */
export function mergeSlice(
  original: unknown[],
  patch: unknown[],
  schema: PatchSchema,
  mergeKey: string,
  options: MergeOptions,
  isDeleteList: boolean,
  mergeMap: MergeMapFn,
  view?: LiveListView,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  let merged: unknown[];
  let serverOrder = original;
  let patchItems = patch;
  if (kind !== 'map') {
    if (options.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch);
    merged = uniqueScalars(original.concat(patch));
  } else {
    if (mergeKey === '') throw smpServerError(`cannot merge lists without merge key for ${schema.name()}`);
    let backing: Backing;
    [serverOrder, patchItems, backing] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(serverOrder, patchItems, mergeKey, schema, options, mergeMap, view ? backing : undefined);
    if (view) view.slots = backing.slots;
  }
  const [inPatch, serverOnly] =
    mergeKey === '' ? partitionPrimitivesByPresentInList(merged, patchItems) : partitionMapsByPresentInList(merged, patchItems, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patchItems, serverOrder, mergeKey, kind);
}

/** `mergeSliceHandler`: merge under `merge` strategy (or a delete list), otherwise replace. */
export function mergeSliceHandler(
  original: unknown,
  patch: unknown,
  schema: PatchSchema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
  options: MergeOptions,
  mergeMap: MergeMapFn,
  view?: LiveListView,
): unknown[] {
  if (!Array.isArray(original)) throw errBadArgType('slice', original);
  if (!Array.isArray(patch)) throw errBadArgType('slice', patch);
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, options, isDeleteList, mergeMap, view);
  return patch;
}
