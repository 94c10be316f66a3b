/**
 * Rules shared by the key/value bags of ConfigMap (`data`, `binaryData`) and Secret (`data`):
 * key format, the 1 MiB size limit and the `immutable` flag (Kubernetes' `ValidateConfigMap`,
 * `ValidateSecret` and their `...Update` variants).
 */
import { fieldError, key, type FieldError } from '../../machinery/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../schema/validation/immutable-fields.js';
import { isConfigMapKey, utf8ByteLength } from '../../schema/validation/names.js';

/** `core.MaxSecretSize`: the most bytes the values of a ConfigMap or Secret may hold together. */
export const MAX_DATA_SIZE = 1024 * 1024;

/** The Forbidden detail for changes to an immutable ConfigMap or Secret (`ValidateConfigMapUpdate`, `ValidateSecretUpdate`). */
export const IMMUTABLE_SET_DETAIL = `${FIELD_IMMUTABLE_ERROR_MSG} when \`immutable\` is set`;

/** `IsConfigMapKey` for every key of a bag, reported at `<path>[<key>]`. */
export function validateDataKeys(bag: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const k of Object.keys(bag ?? {})) {
    for (const msg of isConfigMapKey(k)) errors.push(fieldError.invalid(key(path, k), k, msg));
  }
  return errors;
}

/** Bytes that a base64 text (already checked to be valid, padded base64) decodes to. */
export function base64DecodedLength(text: string): number {
  // Go's decoder skips CR and LF; the rest is 4 characters per 3 bytes, minus padding.
  const clean = /[\r\n]/.test(text) ? text.replace(/[\r\n]/g, '') : text;
  let pad = 0;
  if (clean.endsWith('==')) pad = 2;
  else if (clean.endsWith('=')) pad = 1;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

/** Total size of a bag: string values as UTF-8, or base64 values as their decoded bytes. */
export function bagSize(bag: Readonly<Record<string, string>> | undefined, encoding: 'text' | 'base64'): number {
  let total = 0;
  for (const v of Object.values(bag ?? {})) total += encoding === 'text' ? utf8ByteLength(v) : base64DecodedLength(v);
  return total;
}

/** True when two bags differ (an absent bag equals an empty one, as after a storage round trip). */
export function bagsDiffer(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return true;
  return ak.some((k) => !Object.prototype.hasOwnProperty.call(b ?? {}, k) || a![k] !== b![k]);
}

/**
 * The working objects whose bags a request sent as `{}`: Go decodes those to empty maps that are
 * not nil, which `reflect.DeepEqual` tells from the nil map of a stored object (Kubernetes never
 * stores an empty map), even after {@link dropEmptyBag} took them out.
 */
const sentEmpty = new WeakMap<object, Set<string>>();

/** Drops a bag that is empty: Kubernetes never serializes an empty map (`omitempty`). */
export function dropEmptyBag<T extends object>(obj: T, field: keyof T & string): void {
  const bag = obj[field];
  if (bag && typeof bag === 'object' && Object.keys(bag).length === 0) {
    delete obj[field];
    const fields = sentEmpty.get(obj) ?? new Set<string>();
    fields.add(field);
    sentEmpty.set(obj, fields);
  }
}

/**
 * The `immutable` rules of an update: once set, `immutable` stays true and the named bags may not
 * change. Returns nothing when the old object was not immutable. Kubernetes compares the bags with
 * `reflect.DeepEqual`, so an empty bag the request sent differs from an absent stored one, except
 * for the bags in `defaulted` (a ConfigMap's `data`, which decoding defaults to an empty map on
 * both sides).
 */
export function validateImmutableBags<T extends { immutable?: boolean }>(
  obj: Readonly<T>,
  old: Readonly<T>,
  bags: readonly (keyof T & string)[],
  defaulted: readonly (keyof T & string)[] = [],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  if (obj.immutable !== true) errors.push(fieldError.forbidden('immutable', IMMUTABLE_SET_DETAIL));
  const emptied = sentEmpty.get(obj);
  for (const bag of bags) {
    const a = obj[bag] as Readonly<Record<string, string>> | undefined;
    const b = old[bag] as Readonly<Record<string, string>> | undefined;
    const emptyNotNil = !!emptied?.has(bag) && !defaulted.includes(bag) && Object.keys(b ?? {}).length === 0;
    if (emptyNotNil || bagsDiffer(a, b)) errors.push(fieldError.forbidden(bag, IMMUTABLE_SET_DETAIL));
  }
  return errors;
}
