/**
 * JSON merge patch (RFC 7386, `application/merge-patch+json`) as Kubernetes applies and creates it.
 *
 * The apiserver (pkg/endpoints/handlers/patch.go, `applyJSPatch`, case MergePatchType) calls
 * `jsonpatch.MergePatch` of gopkg.in/evanphx/json-patch.v4:
 *
 * - `null` deletes a member; objects merge recursively; arrays and scalars replace.
 * - A value added where the document has no object (missing member, `null`, or a non-object) has
 *   its `null` members pruned, recursively through objects and arrays (null array elements
 *   stay). A non-object patch value replacing an object is taken as is, unpruned.
 * - A patch that is `null` or a scalar fails with 400 `Invalid JSON Patch`.
 * - An array patch replaces the whole document with the array (nulls pruned inside its objects);
 *   the apiserver then fails to decode it into the kind (422, outside this module).
 * - Under fieldValidation Warn (the default) or Strict the body is first decoded strictly into
 *   `map[string]any`, so a non-object body other than `null` fails earlier with 400
 *   `error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}`.
 * - A body nested deeper than 10000 fails `json.Valid`: 400 `invalid JSON patch`.
 *
 * `createMergePatch` is evanphx's `CreateMergePatch` (used by kubectl for kinds without
 * strategic metadata): changed members, `null` for removed ones, arrays replaced whole.
 */
import { PatchError } from './errors.js';
import { isJsonObject, type JsonObject } from '../util/go-value.js';
import { cloneJsonDocument } from '../util/json-clone.js';
import { jsonEqual } from '../util/json-equal.js';
import { nestingExceeds } from '../util/json-nesting.js';
import { hasOwn, setOwn } from '../util/own.js';
import { jsonValueKind, MAX_JSON_NESTING_DEPTH, type FieldValidation } from './json-patch.js';

/** Options of {@link applyMergePatch}. */
export interface MergePatchOptions {
  /** Default `Warn`, the apiserver's default. */
  fieldValidation?: FieldValidation;
}

/** jsonpatch.ErrBadJSONPatch. */
export const ERR_BAD_JSON_PATCH = 'Invalid JSON Patch';
/** jsonpatch.ErrBadJSONDoc. */
export const ERR_BAD_JSON_DOC = 'Invalid JSON Document';
/** jsonpatch's errBadMergeTypes. */
export const ERR_BAD_MERGE_TYPES = 'Mismatched JSON Documents';

/** Removes null members of objects, recursively through objects and arrays (in place). */
function pruneNulls(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === 'object') stack.push(item);
    } else if (isJsonObject(v)) {
      for (const k of Object.keys(v)) {
        const item = v[k];
        if (item === null) delete v[k];
        else if (typeof item === 'object') stack.push(item);
      }
    }
  }
}

/**
 * evanphx `mergeDocs(doc, patch, mergeMerge=false)` on owned values (both may be mutated; the
 * patch's values end up in doc). Iterative so that deep documents are safe.
 */
function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  const stack: Array<[JsonObject, JsonObject]> = [[doc, patch]];
  while (stack.length) {
    const [d, p] = stack.pop()!;
    for (const k of Object.keys(p)) {
      const v = p[k];
      if (v === null) {
        delete d[k];
        continue;
      }
      const cur = hasOwn(d, k) ? d[k] : null;
      if (cur === null) {
        pruneNulls(v);
        setOwn(d, k, v);
      } else if (!isJsonObject(cur)) {
        // merge(): the current value is not an object, so the patch value replaces it, pruned.
        pruneNulls(v);
        setOwn(d, k, v);
      } else if (!isJsonObject(v)) {
        // merge(): the patch value is not an object: it replaces the object as is.
        setOwn(d, k, v);
      } else {
        stack.push([cur, v]);
      }
    }
  }
}

/** Merges an owned patch into an owned document (evanphx `doMergePatch` after decoding). */
export function mergePatchValues(doc: unknown, patch: unknown): unknown {
  if (patch === null) throw new PatchError('invalid-patch', ERR_BAD_JSON_PATCH);
  if (!isJsonObject(patch)) {
    if (!Array.isArray(patch)) throw new PatchError('invalid-patch', ERR_BAD_JSON_PATCH);
    pruneNulls(patch);
    return patch;
  }
  if (doc === null) throw new PatchError('server-error', ERR_BAD_JSON_DOC);
  if (!isJsonObject(doc)) {
    // Not a document: the (pruned) patch becomes the result.
    pruneNulls(patch);
    return patch;
  }
  mergeDocs(doc, patch);
  return doc;
}

/**
 * Applies a JSON merge patch as Kubernetes does; returns a new document (inputs untouched).
 * Throws {@link PatchError} (400 for undecodable patches, see errors.ts).
 */
export function applyMergePatch(doc: unknown, patch: unknown, options: MergePatchOptions = {}): unknown {
  if (nestingExceeds(patch, MAX_JSON_NESTING_DEPTH)) throw new PatchError('invalid-patch', 'invalid JSON patch');
  const validation = options.fieldValidation ?? 'Warn';
  if ((validation === 'Warn' || validation === 'Strict') && patch !== null && !isJsonObject(patch)) {
    throw new PatchError('invalid-patch', `error decoding patch: json: cannot unmarshal ${jsonValueKind(patch)} into Go value of type map[string]interface {}`);
  }
  return mergePatchValues(cloneJsonDocument(doc), cloneJsonDocument(patch));
}

// --- CreateMergePatch ---------------------------------------------------------------------------

/**
 * evanphx `getDiff(a, b)`: the merge patch turning object a into object b (added or changed
 * members, null for removed ones, nested objects diffed and dropped when empty). Iterative.
 */
function getDiff(a: JsonObject, b: JsonObject): JsonObject {
  interface Frame {
    a: JsonObject;
    b: JsonObject;
    into: JsonObject;
    parent?: JsonObject;
    key?: string;
    expanded: boolean;
  }
  const root: JsonObject = {};
  const stack: Frame[] = [{ a, b, into: root, expanded: false }];
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    if (f.expanded) {
      stack.pop();
      if (f.parent && Object.keys(f.into).length > 0) setOwn(f.parent, f.key!, f.into);
      continue;
    }
    f.expanded = true;
    for (const key of Object.keys(f.b)) {
      const bv = f.b[key];
      if (!hasOwn(f.a, key)) {
        setOwn(f.into, key, cloneJsonDocument(bv));
        continue;
      }
      const av = f.a[key];
      // encoding/json decodes every number as float64, so only the JSON kind matters.
      if (jsonValueKind(av) !== jsonValueKind(bv)) setOwn(f.into, key, cloneJsonDocument(bv));
      else if (isJsonObject(av)) stack.push({ a: av, b: bv as JsonObject, into: {}, parent: f.into, key, expanded: false });
      // evanphx matchesValue: same Go types and equal contents.
      else if (!jsonEqual(av, bv)) setOwn(f.into, key, cloneJsonDocument(bv));
    }
    for (const key of Object.keys(f.a)) if (!hasOwn(f.b, key)) setOwn(f.into, key, null);
  }
  return root;
}

function asDocument(v: unknown): JsonObject {
  // json.Unmarshal into map[string]interface{}: null decodes as an empty map.
  if (v === null || v === undefined) return {};
  if (!isJsonObject(v)) throw new PatchError('invalid-patch', ERR_BAD_JSON_DOC);
  return v;
}

/**
 * evanphx `CreateMergePatch`: a merge patch that turns `original` into `modified`. Two arrays
 * (of objects, equal lengths) give an array of per-element patches; an array and an object fail
 * with `Mismatched JSON Documents`; anything else that is not an object with `Invalid JSON Document`.
 */
export function createMergePatch(original: unknown, modified: unknown): unknown {
  const oa = Array.isArray(original);
  const ma = Array.isArray(modified);
  if (oa && ma) {
    const o = original as unknown[];
    const m = modified as unknown[];
    if (o.length !== m.length) throw new PatchError('invalid-patch', ERR_BAD_JSON_DOC);
    return o.map((item, i) => getDiff(asDocument(item), asDocument(m[i])));
  }
  if (oa !== ma) throw new PatchError('invalid-patch', ERR_BAD_MERGE_TYPES);
  return getDiff(asDocument(original), asDocument(modified));
}
