/**
 * Additional printer columns and the simple JSON paths of columns and the scale subresource
 * (apiextensions-apiserver validation.go `ValidateCustomResourceColumnDefinition`,
 * `validateSimpleJSONPath`).
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { CustomResourceColumnDefinition } from '../../types/apiextensions-v1.js';

/** The column types, sorted as Kubernetes lists them. */
export const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
/** The column formats, sorted. */
export const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** `validateSimpleJSONPath`: a path in dot notation that starts with `.`. */
export function validateSimpleJSONPath(s: string, path: string): FieldError[] {
  if (s === '') return [fieldError.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldError.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** One column: name, type, format and JSON path. The path's field is spelled `JSONPath`, as the internal type spells it. */
export function validateColumn(col: Partial<CustomResourceColumnDefinition>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!col.name) errors.push(fieldError.required(child(path, 'name'), ''));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!col.type) errors.push(fieldError.required(child(path, 'type'), types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errors.push(fieldError.invalid(child(path, 'type'), col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format))
    errors.push(fieldError.invalid(child(path, 'format'), col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  const jsonPath = col.jsonPath ?? '';
  if (jsonPath === '') errors.push(fieldError.required(child(path, 'JSONPath'), ''));
  else errors.push(...validateSimpleJSONPath(jsonPath, child(path, 'JSONPath')));
  return errors;
}
