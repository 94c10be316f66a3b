/**
 * `status.storedVersions` (apiextensions-apiserver validation.go
 * `ValidateCustomResourceDefinitionStoredVersions`): never empty, holding the storage version, and
 * naming only versions still in `spec.versions` (a version that was ever stored stays in the spec
 * until a storage migration removes it from the list).
 */
import { fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import type { InternalVersion } from './internal.js';

/** Validates `storedVersions` against the versions of the spec, at `path` (`status.storedVersions`). */
export function validateStoredVersions(storedVersions: readonly string[], versions: readonly InternalVersion[], path: string): FieldError[] {
  if (storedVersions.length === 0) return [fieldError.invalid(path, storedVersions, 'must have at least one stored version')];
  const errors: FieldError[] = [];
  // Go keeps the last index of a repeated name (map assignment in order).
  const remaining = new Map<string, number>();
  storedVersions.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const stored = remaining.has(v.name);
    if (v.storage && !stored) errors.push(fieldError.invalid(path, storedVersions, `must have the storage version ${v.name}`));
    if (stored) remaining.delete(v.name);
  }
  // Go walks what is left in map order (random); memkube reports it in list order.
  for (const [v, i] of [...remaining].sort((a, b) => a[1] - b[1])) {
    errors.push(
      fieldError.invalid(
        index(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errors;
}
