/**
 * Computing patches the way client-side `kubectl apply` (and `kubectl edit`/`set`) does:
 * `strategicpatch.CreateTwoWayMergePatch` and `strategicpatch.CreateThreeWayMergePatch` for
 * kinds with strategic metadata, `jsonpatch.CreateMergePatch` and
 * `jsonmergepatch.CreateThreeWayJSONMergePatch` for kinds without (custom resources; pass
 * `schema` undefined and send the result as `application/merge-patch+json`).
 *
 * What kubectl emits (k8s.io/apimachinery pkg/util/strategicpatch/patch.go, `diffMaps`):
 * - added and changed fields with their new values, removed fields as `null`;
 * - fields with `patchStrategy: replace` whole whenever present in both;
 * - lists without merge strategy whole when they differ;
 * - merged lists of maps: one entry per added/changed element (changed ones carry only the
 *   changed fields plus the merge key), `{<key>: v, $patch: delete}` per removed element (after
 *   the others), and `$setElementOrder/<field>` (merge keys of the new list, in order) when
 *   anything changed or the order changed;
 * - merged lists of scalars: the added values in their new order, removed values in
 *   `$deleteFromPrimitiveList/<field>`, and `$setElementOrder/<field>` (the new list) when values
 *   were removed or the list differs from the old one *sorted* (Go sorts the old list in place
 *   before comparing, so a pure reordering into sorted order is not detected);
 * - `$retainKeys` (sorted) in every map under a `retainKeys` strategy (Pod `volumes`, ...): the
 *   non-null keys of the new map, when the patch of that map is not empty or the old map had
 *   other non-null keys.
 * The three-way patch is the difference current→modified without deletions, merged with the
 * deletions original→modified; with `overwrite: false` it fails when it touches anything that
 * changed between original and current (kubectl apply always passes `overwrite: true`).
 */
import { stringify } from 'yaml';
import type { StructuralNode } from '../schema/structural.js';
import { ERR_BAD_JSON_DOC, ERR_NO_LIST_OF_LISTS, PatchError, smpServerError } from './errors.js';
import { goPrintString, goPrintValue } from '../util/go-print.js';
import { goLess, goLessEq, goSort } from '../util/go-sort.js';
import { goDeepEqual, goInterfaceEqual, goKind, isJsonObject, type JsonObject } from '../util/go-value.js';
import { cloneJsonDocument } from '../util/json-clone.js';
import { hasOwn, setOwn } from '../util/own.js';
import { createMergePatch, mergePatchValues } from './merge-patch.js';
import { deduplicateScalarsGo, normalizeSliceOrder } from './strategic-merge-lists.js';
import {
  DELETE_DIRECTIVE,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  MERGE_DIRECTIVE,
  PatchSchema,
  REPLACE_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
  errNoMergeKey,
  extractRetainKeysPatchStrategy,
  sliceElementType,
} from './strategic-merge-meta.js';
import { asPatchError, mergeMap, mergeKeyValueEqual } from './strategic-merge.js';

/** `mergepatch.PreconditionFunc`: false fails the patch computation. */
export type PatchPrecondition = (patch: JsonObject) => boolean;

/** `mergepatch.RequireKeyUnchanged`: the patch must not touch `key`. */
export function requireKeyUnchanged(key: string): PatchPrecondition {
  return (patch) => !hasOwn(patch, key);
}

/** `mergepatch.RequireMetadataKeyUnchanged`: the patch must not touch `metadata.<key>`. */
export function requireMetadataKeyUnchanged(key: string): PatchPrecondition {
  return (patch) => {
    const md = hasOwn(patch, 'metadata') ? patch.metadata : undefined;
    return !isJsonObject(md) || !hasOwn(md, key);
  };
}

/** Options of the patch computations. */
export interface CreatePatchOptions {
  /** Checked against the computed patch (kubectl apply: apiVersion, kind, metadata.name unchanged). */
  preconditions?: PatchPrecondition[];
}

/** Options of {@link createThreeWayMergePatch}. */
export interface ThreeWayOptions extends CreatePatchOptions {
  /** Default true (kubectl apply); false fails on conflicts with changes made in `current`. */
  overwrite?: boolean;
}

interface DiffOptions {
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  buildRetainKeysDirective: boolean;
}

const NO_DIFF_OPTIONS: DiffOptions = {
  setElementOrder: false,
  ignoreChangesAndAdditions: false,
  ignoreDeletions: false,
  buildRetainKeysDirective: false,
};

/** `sortScalars`: Go's sort.Sort by the `%v` text with `<=` (in place). */
function sortScalars(list: unknown[]): unknown[] {
  return goSort(list, (a, b) => goLessEq(goPrintValue(a), goPrintValue(b)));
}

/** `diffMaps`: the patch that turns `original` into `modified`. */
function diffMaps(original: JsonObject, modified: JsonObject, schema: PatchSchema, opts: DiffOptions): JsonObject {
  const patch: JsonObject = {};
  const retainKeys: unknown[] = [];
  for (const key of Object.keys(modified)) {
    const modifiedValue = modified[key];
    if (opts.buildRetainKeysDirective && modifiedValue !== null) retainKeys.push(key);
    if (!hasOwn(original, key)) {
      if (!opts.ignoreChangesAndAdditions) setOwn(patch, key, modifiedValue);
      continue;
    }
    const originalValue = original[key];
    if (key === DIRECTIVE_MARKER) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') {
        throw smpServerError(`invalid value for special key: ${DIRECTIVE_MARKER}`);
      }
      if (originalValue !== modifiedValue) setOwn(patch, DIRECTIVE_MARKER, modifiedValue);
      continue;
    }
    if (goKind(originalValue) !== goKind(modifiedValue)) {
      if (!opts.ignoreChangesAndAdditions) setOwn(patch, key, modifiedValue);
      continue;
    }
    if (isJsonObject(originalValue)) handleMapDiff(key, originalValue, modifiedValue as JsonObject, patch, schema, opts);
    else if (Array.isArray(originalValue)) handleSliceDiff(key, originalValue, modifiedValue as unknown[], patch, schema, opts);
    else replacePatchFieldIfNotEqual(key, originalValue, modifiedValue, patch, opts);
  }
  if (!opts.ignoreDeletions) {
    for (const key of Object.keys(original)) if (!hasOwn(modified, key)) setOwn(patch, key, null);
  }
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified))) {
    setOwn(patch, RETAIN_KEYS_DIRECTIVE, sortScalars(retainKeys));
  }
  return patch;
}

function hasAdditionalNewField(original: JsonObject, modified: JsonObject): boolean {
  return Object.keys(original).some((k) => original[k] !== null && !hasOwn(modified, k));
}

function replacePatchFieldIfNotEqual(key: string, original: unknown, modified: unknown, patch: JsonObject, opts: DiffOptions): void {
  if (opts.ignoreChangesAndAdditions || goDeepEqual(original, modified)) return;
  setOwn(patch, key, modified);
}

function handleMapDiff(key: string, original: JsonObject, modified: JsonObject, patch: JsonObject, schema: PatchSchema, opts: DiffOptions): void {
  let lookup: ReturnType<PatchSchema['lookupStruct']>;
  try {
    lookup = schema.lookupStruct(key);
  } catch (e) {
    if (goDeepEqual(original, modified)) return;
    throw e;
  }
  const [subschema, meta] = lookup;
  const [retainKeys, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
  const sub = { ...opts, buildRetainKeysDirective: retainKeys };
  if (strategy === REPLACE_DIRECTIVE) {
    if (!sub.ignoreChangesAndAdditions) setOwn(patch, key, modified);
    return;
  }
  const value = diffMaps(original, modified, subschema, sub);
  if (Object.keys(value).length > 0) setOwn(patch, key, value);
}

function handleSliceDiff(key: string, original: unknown[], modified: unknown[], patch: JsonObject, schema: PatchSchema, opts: DiffOptions): void {
  let lookup: ReturnType<PatchSchema['lookupSlice']>;
  try {
    lookup = schema.lookupSlice(key);
  } catch (e) {
    if (goDeepEqual(original, modified)) return;
    throw e;
  }
  const [subschema, meta] = lookup;
  const [retainKeys, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
  if (strategy !== MERGE_DIRECTIVE) {
    replacePatchFieldIfNotEqual(key, original, modified, patch, opts);
    return;
  }
  const sub = { ...opts, buildRetainKeysDirective: retainKeys };
  const [add, del, order] = diffLists(original, modified, subschema, meta.mergeKey, sub);
  if (add.length) setOwn(patch, key, add);
  if (del.length) setOwn(patch, `${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/${key}`, del);
  if (order.length) setOwn(patch, `${SET_ELEMENT_ORDER_PREFIX}/${key}`, order);
}

/** `diffLists`: [patch list, deletion list, $setElementOrder list]. */
function diffLists(original: unknown[], modified: unknown[], schema: PatchSchema, mergeKey: string, opts: DiffOptions): [unknown[], unknown[], unknown[]] {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions) return [[], [], []];
    return [modified, [], []];
  }
  const kind = sliceElementType(original, modified);
  if (kind === 'map') {
    const [changes, deletions] = diffListsOfMaps(original, modified, schema, mergeKey, opts);
    const patchList = normalizeSliceOrder(changes, modified, mergeKey, kind).concat(deletions);
    const orderSame = isOrderSame(original, modified, mergeKey);
    let order: unknown[] = [];
    if (
      opts.setElementOrder &&
      ((!opts.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) || (!opts.ignoreDeletions && patchList.length > 0))
    ) {
      order = modified.map((v) => {
        const entry: JsonObject = {};
        setOwn(entry, mergeKey, hasOwn(v as JsonObject, mergeKey) ? (v as JsonObject)[mergeKey] : null);
        return entry;
      });
    }
    return [patchList, [], order];
  }
  if (kind === 'slice') throw new PatchError('unprocessable', ERR_NO_LIST_OF_LISTS);
  const [additions, deletions] = diffListsOfScalars(original, modified, opts);
  const patchList = normalizeSliceOrder(additions, modified, mergeKey, kind);
  let order: unknown[] = [];
  // `original` has been sorted in place by diffListsOfScalars, as in Go.
  if (opts.setElementOrder && ((!opts.ignoreDeletions && deletions.length > 0) || (!opts.ignoreChangesAndAdditions && !goDeepEqual(original, modified)))) {
    order = modified;
  }
  return [patchList, deletions, order];
}

function isOrderSame(original: unknown[], modified: unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  for (let i = 0; i < modified.length; i++) if (!mergeKeyValueEqual(original[i], modified[i], mergeKey)) return false;
  return true;
}

/** `diffListsOfScalars`: [additions, deletions]; sorts `original` in place like Go. */
function diffListsOfScalars(original: unknown[], modified: unknown[], opts: DiffOptions): [unknown[], unknown[]] {
  const originalScalars = sortScalars(original);
  const modifiedScalars = sortScalars(modified.slice());
  const additions: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < originalScalars.length || j < modifiedScalars.length) {
    const oIn = i < originalScalars.length;
    const mIn = j < modifiedScalars.length;
    const o = oIn ? goPrintValue(originalScalars[i]) : '';
    const m = mIn ? goPrintValue(modifiedScalars[j]) : '';
    if (oIn && mIn && o === m) {
      i++;
      j++;
    } else if (!oIn || (mIn && goLess(m, o))) {
      if (!opts.ignoreChangesAndAdditions) additions.push(modifiedScalars[j]);
      j++;
    } else {
      if (!opts.ignoreDeletions) deletions.push(originalScalars[i]);
      i++;
    }
  }
  return [additions, deduplicateScalarsGo(deletions)];
}

/** `sortMergeListsByNameArray` without recursion: by the `%v` of the merge key (Go's sort.Sort). */
function sortByMergeKey(list: unknown[], mergeKey: string): unknown[] {
  if (list.length === 0) return list;
  sliceElementType(list);
  const key = (v: unknown): string => goPrintValue(isJsonObject(v) && hasOwn(v, mergeKey) ? v[mergeKey] : null);
  return goSort(list.slice(), (a, b) => goLessEq(key(a), key(b)));
}

function mergeKeyOf(v: unknown, mergeKey: string): unknown {
  const m = v as JsonObject;
  if (!hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
  return m[mergeKey];
}

/** `diffListsOfMaps`: [changes and additions, delete directives]. */
function diffListsOfMaps(original: unknown[], modified: unknown[], schema: PatchSchema, mergeKey: string, opts: DiffOptions): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const deletions: unknown[] = [];
  const os = sortByMergeKey(original, mergeKey);
  const ms = sortByMergeKey(modified, mergeKey);
  let i = 0;
  let j = 0;
  while (i < os.length || j < ms.length) {
    const oIn = i < os.length;
    const mIn = j < ms.length;
    const oKey = oIn ? mergeKeyOf(os[i], mergeKey) : undefined;
    const mKey = mIn ? mergeKeyOf(ms[j], mergeKey) : undefined;
    const o = oIn ? goPrintValue(oKey) : '';
    const m = mIn ? goPrintValue(mKey) : '';
    if (oIn && mIn && o === m) {
      const value = diffMaps(os[i] as JsonObject, ms[j] as JsonObject, schema, opts);
      if (Object.keys(value).length > 0) {
        setOwn(value, mergeKey, mKey);
        patch.push(value);
      }
      i++;
      j++;
    } else if (!oIn || (mIn && goLess(m, o))) {
      if (!opts.ignoreChangesAndAdditions) patch.push(ms[j]);
      j++;
    } else {
      if (!opts.ignoreDeletions) {
        const directive: JsonObject = {};
        setOwn(directive, mergeKey, oKey);
        setOwn(directive, DIRECTIVE_MARKER, DELETE_DIRECTIVE);
        deletions.push(directive);
      }
      i++;
    }
  }
  return [patch, deletions];
}

function asDocument(v: unknown): JsonObject {
  if (v === null || v === undefined) return {};
  if (!isJsonObject(v)) throw new PatchError('invalid-patch', ERR_BAD_JSON_DOC);
  return cloneJsonDocument(v);
}

function checkPreconditions(patch: JsonObject, preconditions: PatchPrecondition[] | undefined): void {
  for (const fn of preconditions ?? []) {
    if (!fn(patch)) throw new PatchError('precondition-failed', `precondition failed for: ${goPrintValue(patch)}`);
  }
}

/**
 * `CreateTwoWayMergePatch`: the strategic merge patch turning `original` into `modified`. With
 * `schema` undefined, `jsonpatch.CreateMergePatch` (a JSON merge patch).
 */
export function createStrategicMergePatch(
  original: unknown,
  modified: unknown,
  schema: StructuralNode | undefined,
  options: CreatePatchOptions = {},
): JsonObject {
  try {
    if (schema === undefined) {
      const patch = createMergePatch(asDocument(original), asDocument(modified)) as JsonObject;
      checkPreconditions(patch, options.preconditions);
      return patch;
    }
    const opts = { ...NO_DIFF_OPTIONS, setElementOrder: true };
    const patch = diffMaps(asDocument(original), asDocument(modified), new PatchSchema(schema), opts);
    checkPreconditions(patch, options.preconditions);
    return patch;
  } catch (e) {
    throw asPatchError(e);
  }
}

/** `mergepatch.ToYAMLOrError` (sigs.k8s.io/yaml: sorted keys, unindented sequences). */
function toYaml(v: unknown): string {
  return stringify(v, { sortMapEntries: true, indentSeq: false });
}

/**
 * `CreateThreeWayMergePatch` as `kubectl apply` calls it: `original` is the last-applied
 * configuration, `modified` the new configuration, `current` the live object. With `schema`
 * undefined, `jsonmergepatch.CreateThreeWayJSONMergePatch` (a JSON merge patch).
 */
export function createThreeWayMergePatch(
  original: unknown,
  modified: unknown,
  current: unknown,
  schema: StructuralNode | undefined,
  options: ThreeWayOptions = {},
): JsonObject {
  const o = asDocument(original);
  const m = asDocument(modified);
  const c = asDocument(current);
  try {
    if (schema === undefined) return threeWayJsonMergePatch(o, m, c, options);
    const lookup = new PatchSchema(schema);
    const delta = diffMaps(c, m, lookup, { ...NO_DIFF_OPTIONS, ignoreDeletions: true, setElementOrder: true });
    const deletions = diffMaps(o, m, lookup, { ...NO_DIFF_OPTIONS, setElementOrder: true, ignoreChangesAndAdditions: true });
    const patch = mergeMap(deletions, delta, lookup, { mergeParallelList: false, ignoreUnmatchedNulls: false });
    checkPreconditions(patch, options.preconditions);
    if (options.overwrite === false) {
      const changed = diffMaps(o, c, lookup, NO_DIFF_OPTIONS);
      if (mergingMapsHaveConflicts(patch, changed, lookup)) {
        throw new PatchError('conflict', `patch:\n${toYaml(patch)}\nconflicts with changes made from original to current:\n${toYaml(changed)}\n`);
      }
    }
    return patch;
  } catch (e) {
    throw asPatchError(e);
  }
}

// --- conflicts (MergingMapsHaveConflicts) ----------------------------------------------------------

function mergingMapFieldsHaveConflicts(left: unknown, right: unknown, schema: PatchSchema | undefined, strategy: string, mergeKey: string): boolean {
  if (isJsonObject(left)) {
    if (!isJsonObject(right)) return true;
    const okLeft = hasOwn(left, DIRECTIVE_MARKER);
    const okRight = hasOwn(right, DIRECTIVE_MARKER);
    if (okLeft || okRight) {
      if (okLeft !== okRight) return true;
      if (!goInterfaceEqual(left[DIRECTIVE_MARKER], right[DIRECTIVE_MARKER])) return true;
    }
    if (strategy === REPLACE_DIRECTIVE) return false;
    return mapsHaveConflicts(left, right, schema);
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return true;
    return slicesHaveConflicts(left, right, schema, strategy, mergeKey);
  }
  return !goDeepEqual(left, right);
}

function mapsHaveConflicts(left: JsonObject, right: JsonObject, schema: PatchSchema | undefined): boolean {
  for (const key of Object.keys(left)) {
    if (key === DIRECTIVE_MARKER || key === RETAIN_KEYS_DIRECTIVE || !hasOwn(right, key)) continue;
    const leftValue = left[key];
    let subschema: PatchSchema | undefined;
    let strategy = '';
    let mergeKey = '';
    if (Array.isArray(leftValue) || isJsonObject(leftValue)) {
      if (!schema) throw smpServerError('schema lookup on a scalar');
      const [sub, meta] = Array.isArray(leftValue) ? schema.lookupSlice(key) : schema.lookupStruct(key);
      subschema = sub;
      mergeKey = meta.mergeKey;
      [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
    }
    if (mergingMapFieldsHaveConflicts(leftValue, right[key], subschema, strategy, mergeKey)) return true;
  }
  return false;
}

function sliceOfMapsToMapOfMaps(list: unknown[], mergeKey: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const v of list) {
    if (!isJsonObject(v)) throw smpServerError(`invalid element type in merging list:${goPrintValue(list)}`);
    if (!hasOwn(v, mergeKey)) throw smpServerError(`cannot find merge key \`${mergeKey}\` in merging list element:${goPrintValue(v)}`);
    out.set(goPrintString(v[mergeKey]), v);
  }
  return out;
}

function slicesHaveConflicts(left: unknown[], right: unknown[], schema: PatchSchema | undefined, strategy: string, mergeKey: string): boolean {
  const kind = sliceElementType(left, right);
  if (strategy === MERGE_DIRECTIVE) {
    if (kind !== 'map') return false;
    const l = sliceOfMapsToMapOfMaps(left, mergeKey);
    const r = sliceOfMapsToMapOfMaps(right, mergeKey);
    for (const [k, lv] of l) if (r.has(k) && mergingMapFieldsHaveConflicts(lv, r.get(k), schema, '', '')) return true;
    return false;
  }
  if (left.length !== right.length) return true;
  let l = left;
  let r = right;
  if (kind !== 'map') {
    l = sortScalars(deduplicateScalarsGo(left));
    r = sortScalars(deduplicateScalarsGo(right));
  }
  for (let i = 0; i < l.length; i++) if (mergingMapFieldsHaveConflicts(l[i], r[i], schema, '', '')) return true;
  return false;
}

/** `MergingMapsHaveConflicts`: whether two strategic merge patches touch the same data differently. */
export function mergingMapsHaveConflicts(left: JsonObject, right: JsonObject, schema: StructuralNode | PatchSchema): boolean {
  return mergingMapFieldsHaveConflicts(left, right, schema instanceof PatchSchema ? schema : new PatchSchema(schema), '', '');
}

// --- CreateThreeWayJSONMergePatch ------------------------------------------------------------

/** `keepOrDeleteNullInObj`. */
function keepOrDeleteNull(m: JsonObject, keepNull: boolean): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(m)) {
    const val = m[key];
    if (keepNull && val === null) setOwn(out, key, null);
    else if (val !== null) {
      if (isJsonObject(val)) {
        if (Object.keys(val).length === 0) {
          if (!keepNull) setOwn(out, key, val);
          continue;
        }
        const sub = keepOrDeleteNull(val, keepNull);
        if (Object.keys(sub).length !== 0) setOwn(out, key, sub);
      } else if (!keepNull) setOwn(out, key, val);
    }
  }
  return out;
}

/** `mergepatch.HasConflicts`. */
function hasConflicts(left: unknown, right: unknown): boolean {
  if (isJsonObject(left)) {
    if (!isJsonObject(right)) return true;
    return Object.keys(left).some((k) => hasOwn(right, k) && hasConflicts(left[k], right[k]));
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return true;
    return left.some((v, i) => hasConflicts(v, right[i]));
  }
  return !goDeepEqual(left, right);
}

function threeWayJsonMergePatch(original: JsonObject, modified: JsonObject, current: JsonObject, options: ThreeWayOptions): JsonObject {
  const addAndChange = keepOrDeleteNull(createMergePatch(current, modified) as JsonObject, false);
  const deletions = keepOrDeleteNull(createMergePatch(original, modified) as JsonObject, true);
  if (hasConflicts(addAndChange, deletions)) {
    throw new PatchError('conflict', `patch:\n${toYaml(addAndChange)}\nconflicts with changes made from original to current:\n${toYaml(deletions)}\n`);
  }
  const patch = mergePatchValues(cloneJsonDocument(deletions), cloneJsonDocument(addAndChange)) as JsonObject;
  for (const fn of options.preconditions ?? []) {
    if (!fn(patch)) throw new PatchError('precondition-failed', `precondition failed for: ${goPrintValue(patch)}`);
  }
  return patch;
}
