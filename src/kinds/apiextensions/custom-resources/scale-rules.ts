/**
 * The checks apiextensions-apiserver makes on the fields a custom resource's `scale` subresource
 * points at (pkg/registry/customresource/validator.go `ValidateScaleSpec`, `ValidateScaleStatus`):
 * the replica counts must be int64 values in 0..2^31-1 where present, the selector a string.
 * Messages come from apimachinery's `unstructured.NestedInt64` / `NestedString`.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { ScaleSubresource } from '../../../schema/define-kind.js';
import { goPrintValue } from '../../../util/go-print.js';
import { goKind, goTypeName, isJsonObject } from '../../../util/go-value.js';

const MAX_INT32 = 2 ** 31 - 1;

type Lookup = { found: false } | { found: true; value: unknown } | { found: false; error: string };

/** `unstructured.NestedFieldNoCopy` at a dotted path (`.spec.replicas`). */
function nested(obj: unknown, path: string): Lookup {
  const fields = path.replace(/^\./, '').split('.');
  let value: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (!isJsonObject(value)) {
      // Go prints the path walked so far and the value that is not a map.
      const at = `.${fields.slice(0, i).join('.')}`;
      return { found: false, error: `${at} accessor error: ${goPrintValue(value)} is of the type ${goTypeName(value)}, expected map[string]interface{}` };
    }
    if (!Object.hasOwn(value, fields[i]!)) return { found: false };
    value = value[fields[i]!];
  }
  return { found: true, value };
}

function replicasErrors(obj: unknown, path: string): FieldError[] {
  const at = nested(obj, path);
  if ('error' in at) return [fieldError.invalid(path, 0, at.error)];
  if (!at.found) return [];
  if (goKind(at.value) !== 'int64') {
    const fields = `.${path.replace(/^\./, '')}`;
    return [fieldError.invalid(path, 0, `${fields} accessor error: ${goPrintValue(at.value)} is of the type ${goTypeName(at.value)}, expected int64`)];
  }
  const n = at.value as number;
  if (n < 0) return [fieldError.invalid(path, n, 'should be a non-negative integer')];
  if (n > MAX_INT32) return [fieldError.invalid(path, n, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** The spec side: `specReplicasPath`. */
export function validateScaleSpec(obj: unknown, scale: ScaleSubresource | undefined): FieldError[] {
  return scale ? replicasErrors(obj, scale.specReplicasPath) : [];
}

/** The status side: `statusReplicasPath` and `labelSelectorPath`. */
export function validateScaleStatus(obj: unknown, scale: ScaleSubresource | undefined): FieldError[] {
  if (!scale) return [];
  const errors = replicasErrors(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const at = nested(obj, scale.labelSelectorPath);
    if ('error' in at) errors.push(fieldError.invalid(scale.labelSelectorPath, '', at.error));
    else if (at.found && typeof at.value !== 'string') {
      const fields = `.${scale.labelSelectorPath.replace(/^\./, '')}`;
      errors.push(
        fieldError.invalid(
          scale.labelSelectorPath,
          '',
          `${fields} accessor error: ${goPrintValue(at.value)} is of the type ${goTypeName(at.value)}, expected string`,
        ),
      );
    }
  }
  return errors;
}
