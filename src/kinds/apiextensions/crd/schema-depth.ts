/**
 * A bound on how deeply a definition's schema may nest. Kubernetes has none besides JSON's own
 * (10,000 levels); memkube walks schemas recursively, so it refuses schemas nested deeper than
 * {@link MAX_SCHEMA_NESTING} JSON levels with one error at the schema (a departure, far beyond any
 * real definition), instead of risking the call stack.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { nestingExceeds } from '../../../util/json-nesting.js';

/** How many JSON levels (objects and arrays) a schema may nest. */
export const MAX_SCHEMA_NESTING = 1000;

/** The error for a schema at `path` nested too deeply, or `[]`. */
export function schemaNestingErrors(schema: unknown, path: string): FieldError[] {
  if (!nestingExceeds(schema, MAX_SCHEMA_NESTING)) return [];
  return [fieldError.forbidden(path, `must not nest more than ${MAX_SCHEMA_NESTING} levels deep (a memkube limit)`)];
}
