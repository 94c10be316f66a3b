/**
 * The `default`s of a structural schema (apiextensions-apiserver/pkg/apiserver/schema/defaulting
 * validation.go `ValidateDefaults`): each must survive pruning ("must not have unknown fields",
 * when pruned defaults are required) and validate against the schema it sits on (left to the
 * `DefaultValueValidator` hook: OpenAPI value validation, embedded metadata, CEL rules). Defaults
 * under `additionalProperties` are not visited (the schema rules forbid them there).
 */
import { child, fieldError, key, type FieldError } from '../../../machinery/field-errors.js';
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import type { DefaultValueValidator } from './hooks.js';
import { wouldPrune } from './prune-check.js';
import { hasDefault, itemsSchema, propertyEntries } from './schema-access.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Validates every default under `root` (the `openAPIV3Schema` at `path`). */
export function validateDefaults(
  root: JSONSchemaProps,
  path: string,
  requirePrunedDefaults: boolean,
  validator: DefaultValueValidator | undefined,
): FieldError[] {
  const out: FieldError[] = [];
  // The root is a resource root: its apiVersion, kind and metadata are "inside meta".
  const visit = (s: JSONSchemaProps, at: string, resourceRoot: JSONSchemaProps, insideMeta: boolean, isRoot: boolean): void => {
    const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true;
    if (embedded) {
      insideMeta = false;
      resourceRoot = s;
    }
    if (hasDefault(s)) {
      const value = s.default;
      const defaultPath = child(at, 'default');
      if (!insideMeta && requirePrunedDefaults && wouldPrune(value, s)) out.push(fieldError.invalid(defaultPath, value, 'must not have unknown fields'));
      if (validator) out.push(...validator.validateDefault({ path: defaultPath, schema: s, resourceRoot, insideMeta, value }));
    }
    const items = itemsSchema(s);
    if (items) visit(items, child(at, 'items'), resourceRoot, insideMeta, false);
    for (const [k, p] of propertyEntries(s)) visit(p, key(child(at, 'properties'), k), resourceRoot, insideMeta || (embedded && META_FIELDS.has(k)), false);
  };
  visit(root, path, root, false, true);
  return out;
}
