/**
 * Whether a schema converts into a structural schema (apiextensions-apiserver/pkg/apiserver/schema
 * convert.go `NewStructural`), and Kubernetes' error when it does not: the keywords structural
 * schemas cannot hold (`id`, `$schema`, `$ref`, `patternProperties`, `dependencies`,
 * `additionalItems`, `definitions`), `items` given as a list, and
 * `x-kubernetes-preserve-unknown-fields: false`. The value validations (allOf, anyOf, oneOf, not)
 * are converted too, so their contents are checked the same way.
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { isObject, mapEntries, propertyEntries } from './schema-access.js';

function unsupportedField(s: JSONSchemaProps): string | undefined {
  if (s.id) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.$ref) return "OpenAPIV3Schema '$ref' is not supported";
  if (mapEntries(s.patternProperties).length) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (mapEntries(s.dependencies).length) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined && s.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (mapEntries(s.definitions).length) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/**
 * The error `NewStructural` answers for `schema`, or undefined when it converts, found in
 * Kubernetes' order: the node's unsupported keywords, its value validations (not, allOf, anyOf,
 * oneOf), its extensions, then items, properties and additionalProperties. Recursive: callers
 * bound the nesting first (`schema-depth.ts`).
 */
export function newStructuralError(s: JSONSchemaProps | undefined): string | undefined {
  if (!s) return undefined;
  const unsupported = unsupportedField(s);
  if (unsupported) return unsupported;
  const nested: unknown[] = [
    s.not,
    ...(Array.isArray(s.allOf) ? s.allOf : []),
    ...(Array.isArray(s.anyOf) ? s.anyOf : []),
    ...(Array.isArray(s.oneOf) ? s.oneOf : []),
  ];
  for (const n of nested) {
    const err = isObject(n) ? newStructuralError(n as JSONSchemaProps) : undefined;
    if (err) return err;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children: unknown[] = [s.items, ...propertyEntries(s).map((e) => e[1]), s.additionalProperties];
  for (const c of children) {
    const err = isObject(c) ? newStructuralError(c as JSONSchemaProps) : undefined;
    if (err) return err;
  }
  return undefined;
}
