/**
 * Embedded resources (`x-kubernetes-embedded-resource: true`): objects inside a custom resource
 * that are themselves resources, with `apiVersion`, `kind` and `metadata` implied by the schema.
 *
 * - {@link coerceEmbeddedResources} (apiserver/schema/objectmeta/algorithm.go `CoerceWithOptions`):
 *   their `metadata` is read as ObjectMeta (unknown members dropped and reported); a non-string
 *   `apiVersion` or `kind`, or a `metadata` that does not decode, fails (or, for stored objects,
 *   is dropped).
 * - {@link validateEmbeddedResources} (objectmeta/validation.go `Validate`): `apiVersion` and `kind`
 *   are required non-empty strings, the group version parses, the kind is a DNS-1035 label in any
 *   case, and `metadata` passes ObjectMeta validation (a missing name is allowed).
 */
import { child, fieldError, index, key, type FieldError } from '../../machinery/field-errors.js';
import { compareGoStrings } from '../../util/go-format.js';
import { getOwn } from '../../util/own.js';
import { isDNS1035Label, pathSegmentNameValidator } from '../validation/names.js';
import { validateObjectMeta } from '../validation/object-meta.js';
import { goShownValue } from './canonical.js';
import { ContainerEdit, definedKeys, isJsonMap } from './copy-on-write.js';
import type { CustomSchemaNode } from './node.js';
import { readObjectMeta, type ObjectMetaOptions } from './object-meta.js';

/** How to coerce embedded resources. */
export interface CoerceOptions {
  readonly objectMeta: ObjectMetaOptions['objectMeta'];
  /** Drop what does not decode instead of failing (objects read from storage). */
  readonly dropInvalidFields?: boolean;
  /** Treat the value itself as a resource (its own `metadata` is coerced too). */
  readonly isResourceRoot?: boolean;
}

/** What coercion found. */
export interface CoerceOutcome {
  readonly value: unknown;
  /** Unknown `metadata` members of embedded resources, sorted (`spec.template.metadata.foo`). */
  readonly unknownFields: string[];
  /** The first error (coercion stops there), e.g. `spec.template.kind: Invalid value: 1: must be a string`. */
  readonly error: FieldError | undefined;
}

class CoerceFailure extends Error {
  constructor(readonly fieldError: FieldError) {
    super(fieldError.detail);
  }
}

function coerce(path: string, x: unknown, s: CustomSchemaNode | undefined, options: CoerceOptions, unknown: string[], root: boolean): unknown {
  if (!s) return x;
  const drop = options.dropInvalidFields ?? false;
  if (isJsonMap(x)) {
    const edit = new ContainerEdit(x);
    for (const k of definedKeys(x)) {
      const v = x[k];
      let replaced = false;
      if (s.embeddedResource || root) {
        if (k === 'apiVersion' || k === 'kind') {
          if (typeof v !== 'string') {
            if (!drop) throw new CoerceFailure(fieldError.invalid(child(path, k), goShownValue(v), 'must be a string'));
            edit.delete(k);
            replaced = true;
          }
        } else if (k === 'metadata') {
          const reading = readObjectMeta(x, { objectMeta: options.objectMeta, dropMalformedFields: drop, parentPath: path });
          unknown.push(...reading.unknownFields);
          if (reading.error !== undefined) {
            if (!drop) throw new CoerceFailure(fieldError.invalid(child(path, 'metadata'), goShownValue(v), reading.error));
          } else if (reading.found) {
            edit.set('metadata', reading.meta);
            replaced = true;
          }
        }
      }
      if (replaced) continue;
      const prop = s.properties?.get(k);
      if (prop) edit.set(k, coerce(child(path, k), v, prop, options, unknown, false));
      else if (s.additionalProperties) edit.set(k, coerce(key(path, k), v, s.additionalProperties.node, options, unknown, false));
    }
    return edit.result;
  }
  if (Array.isArray(x)) {
    const edit = new ContainerEdit(x);
    x.forEach((v, i) => edit.set(i, coerce(index(path, i), v, s.items, options, unknown, false)));
    return edit.result;
  }
  return x;
}

/** Go's `CoerceWithOptions(nil, value, schema, isResourceRoot, ...)`, copy-on-write. */
export function coerceEmbeddedResources(value: unknown, schema: CustomSchemaNode | undefined, options: CoerceOptions): CoerceOutcome {
  const unknown: string[] = [];
  try {
    const coerced = coerce('', value, schema, options, unknown, options.isResourceRoot ?? false);
    return { value: coerced, unknownFields: unknown.sort(compareGoStrings), error: undefined };
  } catch (e) {
    if (e instanceof CoerceFailure) return { value, unknownFields: unknown.sort(compareGoStrings), error: e.fieldError };
    throw e;
  }
}

/** `schema.ParseGroupVersion`'s error, if any. */
function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion === '/' || apiVersion.split('/').length <= 2) return undefined;
  return `unexpected GroupVersion string: ${apiVersion}`;
}

function validateEmbeddedResource(path: string, x: Record<string, unknown>, options: Pick<CoerceOptions, 'objectMeta'>): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion') || x['apiVersion'] === undefined) errs.push(fieldError.required(child(path, 'apiVersion')));
  if (!Object.hasOwn(x, 'kind') || x['kind'] === undefined) errs.push(fieldError.required(child(path, 'kind')));
  for (const k of definedKeys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      const p = child(path, k);
      if (typeof v !== 'string') errs.push(fieldError.invalid(p, goShownValue(v), 'must be a string'));
      else if (v === '') errs.push(fieldError.invalid(p, v, 'must not be empty'));
      else {
        const err = groupVersionError(v);
        if (err) errs.push(fieldError.invalid(p, v, err));
      }
    } else if (k === 'kind') {
      const p = child(path, k);
      if (typeof v !== 'string') errs.push(fieldError.invalid(p, goShownValue(v), 'must be a string'));
      else if (v === '') errs.push(fieldError.invalid(p, v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length) errs.push(fieldError.invalid(p, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata') {
      const reading = readObjectMeta(x, { objectMeta: options.objectMeta });
      const p = child(path, 'metadata');
      if (reading.error !== undefined) {
        errs.push(fieldError.invalid(p, goShownValue(v), reading.error));
      } else {
        const meta = { ...reading.meta };
        if (typeof meta['name'] !== 'string' || meta['name'] === '') meta['name'] = 'fakename';
        const namespaced = typeof meta['namespace'] === 'string' && meta['namespace'] !== '';
        errs.push(...validateObjectMeta(meta, { namespaced, nameValidator: pathSegmentNameValidator, path: p, standardFinalizerNames: false }));
      }
    }
  }
  return errs;
}

function validateEmbedded(
  path: string,
  x: unknown,
  s: CustomSchemaNode | undefined,
  options: Pick<CoerceOptions, 'objectMeta'>,
  root: boolean,
  errs: FieldError[],
): void {
  if (!s) return;
  if (isJsonMap(x)) {
    if (s.embeddedResource || root) errs.push(...validateEmbeddedResource(path, x, options));
    for (const k of definedKeys(x)) {
      const prop = s.properties?.get(k);
      if (prop) validateEmbedded(child(path, k), getOwn(x, k), prop, options, false, errs);
      else if (s.additionalProperties) validateEmbedded(key(path, k), getOwn(x, k), s.additionalProperties.node, options, false, errs);
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => validateEmbedded(index(path, i), v, s.items, options, false, errs));
  }
}

/**
 * Go's `objectmeta.Validate(nil, value, schema, isResourceRoot)`: the embedded resources' type
 * meta and metadata. The resource's own metadata is the engine's (ObjectMeta validation), unless
 * `isResourceRoot`.
 */
export function validateEmbeddedResources(
  value: unknown,
  schema: CustomSchemaNode | undefined,
  options: Pick<CoerceOptions, 'objectMeta'> & { isResourceRoot?: boolean },
): FieldError[] {
  const errs: FieldError[] = [];
  validateEmbedded('', value, schema, options, options.isResourceRoot ?? false, errs);
  return errs;
}
