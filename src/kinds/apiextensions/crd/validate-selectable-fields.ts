/**
 * `selectableFields` (apiextensions-apiserver validation.go `ValidateCustomResourceSelectableFields`):
 * at most 8 distinct fields, each a JSON path (no `[...]` steps) to a string, boolean or integer
 * field of the schema outside `metadata`.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import type { JSONSchemaProps, SelectableField } from '../../types/apiextensions-v1.js';
import { resolveFieldPath } from './field-path.js';
import { typeOf } from './schema-access.js';

/** The most selectable fields a version may have. */
export const MAX_SELECTABLE_FIELDS = 8;

/** Validates `fields` against `schema` at `path`; `allowTooMany` keeps an unchanged list above the limit. */
export function validateSelectableFields(fields: readonly SelectableField[], schema: JSONSchemaProps, path: string, allowTooMany: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = child(index(path, i), 'jsonPath');
    const jsonPath = f.jsonPath ?? '';
    if (jsonPath === '') {
      errors.push(fieldError.required(at, ''));
      return;
    }
    const resolved = resolveFieldPath(jsonPath, schema, false);
    if (resolved instanceof Error) {
      errors.push(fieldError.invalid(at, jsonPath, `is an invalid path: ${resolved.message}`));
      return;
    }
    if (resolved.root === 'metadata') errors.push(fieldError.invalid(at, jsonPath, 'must not point to fields in metadata'));
    const type = resolved.schema ? typeOf(resolved.schema) : '';
    if (!['string', 'boolean', 'integer'].includes(type))
      errors.push(
        fieldError.invalid(at, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'),
      );
    if (unique.has(resolved.text)) errors.push(fieldError.duplicate(at, jsonPath));
    else unique.add(resolved.text);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) errors.push(fieldError.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errors;
}
