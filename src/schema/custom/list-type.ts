/**
 * The invariants of `x-kubernetes-list-type: set` (no two equal items) and `map` (items are
 * objects, no two with the same keys), as apiextensions-apiserver checks them
 * (apiserver/schema/listtype/validation.go `ValidateListSetsAndMaps`): each repeated item is
 * reported once, at the index where it is first repeated, as `Duplicate value`.
 *
 * Scalars compare as Go compares `interface{}` map keys (an int64 1 is not a float64 1.5, nor the
 * string "1"); objects and lists compare by their JSON text.
 */
import { child, fieldError, GoPrinted, index, key, type FieldError } from '../../machinery/field-errors.js';
import { compareGoStrings, goFormatFloat } from '../../util/go-format.js';
import { goMemberKind, scalarKey } from '../../util/go-value.js';
import { getOwn } from '../../util/own.js';
import { canonicalText, goShownValue } from './canonical.js';
import { definedKeys, isJsonMap, type JsonMap } from './copy-on-write.js';
import type { CustomSchemaNode } from './node.js';

const UNSPECIFIED = 'u';

/** The key an item is compared by: a typed scalar key, or the JSON text of a compound value. */
function itemKey(holder: object, slot: string | number, v: unknown): string {
  if (typeof v === 'object' && v !== null) return 'c' + canonicalText(v, false);
  return 's' + scalarKey(v, goMemberKind(holder, slot, v))!;
}

/** Indexes of items whose key was seen exactly once before (Go's `validateListSet`). */
function repeated(keys: readonly string[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  keys.forEach((k, i) => {
    const times = seen.get(k);
    if (times === undefined) seen.set(k, 1);
    else {
      seen.set(k, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function validateListMap(path: string, s: CustomSchemaNode, list: unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && x !== undefined && !isJsonMap(x))
      return [fieldError.invalid(index(path, i), goShownValue(x), 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  const keyFields = s.listMapKeys;
  if (keyFields.length === 1) {
    const field = keyFields[0]!;
    const values = list.map((x) => (isJsonMap(x) ? getOwn(x, field) : undefined));
    const keys = list.map((x, i) => (isJsonMap(x) && values[i] !== undefined ? itemKey(x, field, values[i]) : UNSPECIFIED));
    return repeated(keys).map((i) => {
      if (keys[i] === UNSPECIFIED) return fieldError.duplicate(index(path, i), goShownValue({}));
      const shown: JsonMap = {};
      Object.defineProperty(shown, field, { value: values[i], enumerable: true, writable: true, configurable: true });
      return fieldError.duplicate(index(path, i), goShownValue(shown));
    });
  }
  // Several keys: each item's present key fields form an object, compared (and shown) as JSON.
  const sortedFields = [...keyFields].sort(compareGoStrings);
  const keyObjects = list.map((x) => {
    const k: JsonMap = {};
    if (isJsonMap(x)) {
      for (const f of sortedFields) {
        const v = getOwn(x, f);
        if (v !== undefined) Object.defineProperty(k, f, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    return k;
  });
  const keys = keyObjects.map((k) => 'c' + canonicalText(k, false));
  return repeated(keys).map((i) => fieldError.duplicate(index(path, i), goShownValue(keyObjects[i])));
}

function validateArray(path: string, s: CustomSchemaNode, list: unknown[], errs: FieldError[]): void {
  if (s.listType === 'set') {
    const keys = list.map((x, i) => itemKey(list, i, x));
    for (const i of repeated(keys)) {
      const v = list[i];
      // A float64 shows as Go's %v prints it (1e+06), also when written as one (2.0).
      const shown = typeof v === 'number' && goMemberKind(list, i, v) === 'float64' ? new GoPrinted(goFormatFloat(v)) : goShownValue(v);
      errs.push(fieldError.duplicate(index(path, i), shown));
    }
  } else if (s.listType === 'map') {
    errs.push(...validateListMap(path, s, list));
  }
  if (s.items) list.forEach((x, i) => validateValue(index(path, i), s.items!, x, errs));
}

function validateValue(path: string, s: CustomSchemaNode, v: unknown, errs: FieldError[]): void {
  if (Array.isArray(v)) validateArray(path, s, v, errs);
  else if (isJsonMap(v)) validateObject(path, s, v, errs);
}

function validateObject(path: string, s: CustomSchemaNode, obj: JsonMap, errs: FieldError[]): void {
  const keys = definedKeys(obj);
  const values = s.additionalProperties?.node;
  if (values) for (const k of keys) validateValue(key(path, k), values, obj[k], errs);
  if (s.properties) {
    for (const k of keys) {
      const prop = s.properties.get(k);
      if (prop) validateValue(child(path, k), prop, obj[k], errs);
    }
  }
}

/** Go's `ValidateListSetsAndMaps(nil, schema, obj)`. */
export function validateListSetsAndMaps(obj: unknown, schema: CustomSchemaNode | undefined, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  if (schema && isJsonMap(obj)) validateObject(path, schema, obj, errs);
  return errs;
}
