/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) as the Kubernetes API server
 * applies it: `strategicpatch.StrategicMergeMapPatch` (k8s.io/apimachinery
 * pkg/util/strategicpatch/patch.go) with `MergeParallelList` and `IgnoreUnmatchedNulls`, called
 * by `strategicPatchObject` in k8s.io/apiserver pkg/endpoints/handlers/patch.go.
 *
 * Semantics (per key of the patch, in the order the keys appear):
 * - `null` deletes the key. A value for a key the object lacks (or holds with another JSON type)
 *   is taken as is, minus its `null` members and minus any nested map carrying `$patch`.
 * - Maps merge recursively unless the field's strategy is `replace`; a map with
 *   `$patch: replace` replaces the object's map (the directive removed, nothing else stripped),
 *   `$patch: delete` empties it; any other `$patch` value fails (500 `unknown patch type`).
 * - `$retainKeys: [...]` on a map first removes the object's keys not listed; every non-null key
 *   of the patch map must be listed, else 400 `invalid patch format of retainKeys`.
 * - Lists: merged when the field's strategy is `merge` (see strategic-merge-lists.ts), replaced
 *   whole otherwise (the patch list is taken verbatim, directives and nulls included).
 * - `$deleteFromPrimitiveList/<field>: [...]` removes values from a merged list of scalars.
 * - `$setElementOrder/<field>: [...]` orders the merged list: the listed items in that order,
 *   other live items interleaved by their live position. The patch list must follow the order
 *   of the directive, else 500 `The order in patch list: ... doesn't match $setElementOrder list: ...`.
 * - Other keys starting with `$` are ordinary (unknown) fields.
 * - Merge keys compare with Go's `==` on the decoded types: the patch is decoded with
 *   `PreserveInts`, so a key the patch text writes `80.0` or `8e1` is a float64 and matches no
 *   live int64 `80` (the element is appended). The text comes with the patch (util/json-raw.ts);
 *   numbers directly inside lists of scalars are classified by value only.
 *
 * Custom resources (no strategic metadata; `schema` undefined) are refused with 415, as the
 * apiextensions-apiserver does. See errors.ts for the status of every failure.
 */
import type { StructuralNode } from '../schema/structural.js';
import {
  ERR_BAD_JSON_DOC,
  ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST,
  ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS,
  ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST,
  PatchError,
  UNSUPPORTED_SMP_MESSAGE,
  smpBadRequest,
  smpServerError,
} from './errors.js';
import { goPrintValue } from '../util/go-print.js';
import { goDeepEqual, goInterfaceEqual, goKind, goMemberKind, GoPanic, isJsonObject, type JsonObject } from '../util/go-value.js';
import { cloneJsonDocument } from '../util/json-clone.js';
import { nestingExceeds } from '../util/json-nesting.js';
import { hasOwn, setOwn } from '../util/own.js';
import { jsonValueKind, MAX_JSON_NESTING_DEPTH } from './json-patch.js';
import {
  mergeSliceHandler,
  normalizeElementOrder,
  partitionMapsByPresentInList,
  partitionPrimitivesByPresentInList,
  extractToDeleteItems,
  type LiveListView,
  type MergeOptions,
} from './strategic-merge-lists.js';
import {
  DELETE_DIRECTIVE,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  DIRECTIVE_MARKER,
  PatchSchema,
  REPLACE_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE,
  SET_ELEMENT_ORDER_PREFIX,
  errBadArgType,
  errBadPatchType,
  errNoMergeKey,
  extractRetainKeysPatchStrategy,
  hashKey,
  sliceElementType,
} from './strategic-merge-meta.js';

export type { MergeOptions } from './strategic-merge-lists.js';
export { PatchSchema } from './strategic-merge-meta.js';

/** Server-side options (StrategicMergeMapPatchUsingLookupPatchMeta). */
export const SERVER_MERGE_OPTIONS: MergeOptions = { mergeParallelList: true, ignoreUnmatchedNulls: true };

function isDirectiveMap(v: unknown): boolean {
  return isJsonObject(v) && hasOwn(v, DIRECTIVE_MARKER);
}

/**
 * `removeDirectives`: drops every nested map that carries `$patch` (from maps and lists); maps
 * are edited in place, lists are rebuilt (the caller may still read the original list).
 * Returns undefined when the value itself is such a map (the key is then dropped).
 */
export function removeDirectives(value: unknown): { value: unknown } | undefined {
  if (isDirectiveMap(value)) return undefined;
  const box: JsonObject = { v: value };
  const stack: Array<[JsonObject | unknown[], string | number]> = [[box, 'v']];
  while (stack.length) {
    const [holder, key] = stack.pop()!;
    const x = Array.isArray(holder) ? holder[key as number] : holder[key as string];
    if (Array.isArray(x)) {
      const res = x.filter((item) => !isDirectiveMap(item));
      if (Array.isArray(holder)) holder[key as number] = res;
      else setOwn(holder, key as string, res);
      res.forEach((item, i) => {
        if (typeof item === 'object' && item !== null) stack.push([res, i]);
      });
    } else if (isJsonObject(x)) {
      for (const k of Object.keys(x)) {
        const c = x[k];
        if (isDirectiveMap(c)) delete x[k];
        else if (typeof c === 'object' && c !== null) stack.push([x, k]);
      }
    }
  }
  return { value: box.v };
}

/** `discardNullValuesFromPatch`: drops null members of maps, recursively (in place). */
function discardNullValuesFromPatch(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) stack.push(item);
    } else if (isJsonObject(v)) {
      for (const k of Object.keys(v)) {
        const item = v[k];
        if (item === null) delete v[k];
        else if (typeof item === 'object') stack.push(item);
      }
    }
  }
}

/** `handleDirectiveInMergeMap`. */
function handleDirectiveInMergeMap(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

/** `applyRetainKeysDirective`. */
function applyRetainKeysDirective(original: JsonObject, patch: JsonObject, options: MergeOptions): void {
  if (!hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!options.mergeParallelList) {
    // Merging two patches (three-way): both must carry the same list.
    if (hasOwn(original, RETAIN_KEYS_DIRECTIVE)) {
      const inOriginal = original[RETAIN_KEYS_DIRECTIVE];
      if (!goDeepEqual(inOriginal, retainKeys)) {
        throw smpServerError(
          `${goPrintValue(inOriginal)} and ${goPrintValue(retainKeys)} are not deep equal: this may happen when calculating the 3-way diff patch`,
        );
      }
    } else setOwn(original, RETAIN_KEYS_DIRECTIVE, retainKeys);
    return;
  }
  if (!Array.isArray(retainKeys)) throw smpBadRequest(ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS);
  const keep = new Set<string>();
  for (const v of retainKeys) keep.add(hashKey(v));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!keep.has(hashKey(k))) throw smpBadRequest(ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(hashKey(k))) delete original[k];
}

/** `extractKey`: the field a `$deleteFromPrimitiveList/x` or `$setElementOrder/x` key names. */
function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw smpBadRequest(ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST);
    throw smpBadRequest(ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST);
  }
  return s.slice(slash + 1);
}

/** `mergeKeyValueEqual`: Go `==` of two elements' merge keys (of the elements themselves without a key). */
export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goInterfaceEqual(left, right);
  if (!isJsonObject(left)) throw errBadArgType('map', left);
  if (!isJsonObject(right)) throw errBadArgType('map', right);
  if (!hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  const l = left[mergeKey];
  const r = right[mergeKey];
  return goInterfaceEqual(l, r, goMemberKind(left, mergeKey, l), goMemberKind(right, mergeKey, r));
}

/**
 * `validatePatchWithSetOrderList`: the patch list's items (deletions aside) must appear in the
 * `$setElementOrder` list, in the same relative order.
 */
function validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey !== '' ? extractToDeleteItems(patchList)[0] : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < setOrderList.length) {
    if (isDirectiveMap(nonDelete[p])) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[p], setOrderList[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= setOrderList.length) {
    throw smpServerError(
      `The order in patch list:\n${goPrintValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goPrintValue(setOrderList)}\n`,
    );
  }
}

/** `mergePatchIntoOriginal`: process `$setElementOrder/<field>` directives and their lists. */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: PatchSchema, options: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!hasOwn(patch, key)) continue;
    const setOrder = patch[key];
    if (!options.mergeParallelList) {
      if (hasOwn(original, key)) {
        if (!goDeepEqual(original[key], setOrder)) throw smpBadRequest(ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST);
      } else setOwn(original, key, setOrder);
    }
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType('slice', setOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = hasOwn(original, originalKey);
    const foundPatch = hasOwn(patch, originalKey);
    let originalList: unknown[] = [];
    let patchList: unknown[] = [];
    if (foundOriginal) {
      const v = original[originalKey];
      if (!Array.isArray(v)) throw errBadArgType('slice', v);
      originalList = v;
    }
    if (foundPatch) {
      const v = patch[originalKey];
      if (!Array.isArray(v)) throw errBadArgType('slice', v);
      patchList = v;
    }
    const [subschema, meta] = schema.lookupSlice(originalKey);
    const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchList, setOrder, meta.mergeKey);

    let merged: unknown[];
    // The live list as Go sees it afterwards: merging may have shifted and appended into it.
    const live: LiveListView = {};
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)!.value as unknown[];
    else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(originalList, patchList, subschema, strategy, meta.mergeKey, false, options, mergeMap, live);
    } else continue;

    const [items, serverOnly] =
      meta.mergeKey === '' ? partitionPrimitivesByPresentInList(merged, setOrder) : partitionMapsByPresentInList(merged, setOrder, meta.mergeKey);
    const kind = sliceElementType(originalList, patchList);
    const serverOrder = live.slots ?? originalList;
    setOwn(original, originalKey, normalizeElementOrder(items, serverOnly, setOrder, serverOrder, meta.mergeKey, kind));
    delete patch[originalKey];
  }
}

/**
 * `mergeMap`: merge `patch` into `original` (both owned: they are edited in place) and return
 * the result. Exported for the three-way patch computation, which merges two patches.
 */
export function mergeMap(original: JsonObject | null, patch: JsonObject, schema: PatchSchema, options: MergeOptions): JsonObject {
  if (hasOwn(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  const target: JsonObject = original ?? {};
  applyRetainKeysDirective(target, patch, options);
  mergePatchIntoOriginal(target, patch, schema, options);

  for (let k of Object.keys(patch)) {
    if (!hasOwn(patch, k)) continue;
    const patchV = patch[k];
    let isDeleteList = false;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      if (!options.mergeParallelList) {
        setOwn(target, k, patchV);
        continue;
      }
      k = extractKey(k, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete target[k];
      if (options.ignoreUnmatchedNulls) continue;
    }
    const takePatchValue = (): void => {
      if (isDeleteList) return;
      if (options.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchV);
      const kept = removeDirectives(patchV);
      if (kept) setOwn(target, k, kept.value);
      else delete target[k];
    };
    if (!hasOwn(target, k)) {
      takePatchValue();
      continue;
    }
    const originalV = target[k];
    const kind = goKind(originalV);
    if (kind !== goKind(patchV)) {
      takePatchValue();
      continue;
    }
    if (kind === 'map') {
      const [subschema, meta] = schema.lookupStruct(k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(target, k, strategy !== REPLACE_DIRECTIVE ? mergeMap(originalV as JsonObject, patchV as JsonObject, subschema, options) : patchV);
    } else if (kind === 'slice') {
      const [subschema, meta] = schema.lookupSlice(k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setOwn(target, k, mergeSliceHandler(originalV, patchV, subschema, strategy, meta.mergeKey, isDeleteList, options, mergeMap));
    } else {
      const kept = removeDirectives(patchV);
      if (kept) setOwn(target, k, kept.value);
      else delete target[k];
    }
  }
  return target;
}

/** Converts Go panics and exhausted stacks (absurdly deep documents) into PatchErrors. */
export function asPatchError(e: unknown): unknown {
  if (e instanceof PatchError) return e;
  if (e instanceof GoPanic) return new PatchError('panic', e.message);
  if (e instanceof RangeError) return new PatchError('server-error', `document too deeply nested: ${e.message}`);
  return e;
}

/**
 * Applies a strategic merge patch to `original` as the Kubernetes API server does for a built-in
 * kind whose schema is `schema`; returns a new object (inputs untouched). With `schema`
 * undefined (a custom resource) it fails with 415 like Kubernetes. Throws {@link PatchError}.
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: StructuralNode | undefined): unknown {
  if (schema === undefined) throw new PatchError('unsupported-media-type', UNSUPPORTED_SMP_MESSAGE);
  if (nestingExceeds(patch, MAX_JSON_NESTING_DEPTH)) throw new PatchError('invalid-patch', 'invalid JSON patch');
  if (patch !== null && !isJsonObject(patch)) {
    // kjson.UnmarshalCaseSensitivePreserveInts(patchBytes, &map[string]interface{}{}).
    throw new PatchError('invalid-patch', `json: cannot unmarshal ${jsonValueKind(patch)} into Go value of type map[string]interface {}`);
  }
  if (original !== null && original !== undefined && !isJsonObject(original)) throw smpBadRequest(ERR_BAD_JSON_DOC);
  // A `null` patch decodes to a nil map: nothing to merge.
  const target = cloneJsonDocument((original ?? {}) as JsonObject);
  if (patch === null) return target;
  try {
    return mergeMap(target, cloneJsonDocument(patch), new PatchSchema(schema), SERVER_MERGE_OPTIONS);
  } catch (e) {
    throw asPatchError(e);
  }
}
