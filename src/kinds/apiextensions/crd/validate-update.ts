/**
 * `ValidateCustomResourceDefinitionUpdate` and `ValidateUpdateCustomResourceDefinitionStatus`
 * (apiextensions-apiserver validation.go): the create rules under the update's relaxed options
 * (`ratcheting.ts`), then what may not change: the group and plural always, the scope and kind
 * once the definition is established. A `/status` write checks only the accepted names.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../schema/validation/immutable-fields.js';
import type { CustomResourceDefinition } from '../../types/apiextensions-v1.js';
import type { CrdValidationHooks } from './hooks.js';
import { internalSpec } from './internal.js';
import { updateOptions } from './ratcheting.js';
import { validateAfterSpec, validateSpec, validateStatusNames } from './validate.js';

const immutable = (path: string, value: string, old: string): FieldError[] =>
  value === old ? [] : [fieldError.invalid(path, value, FIELD_IMMUTABLE_ERROR_MSG)];

/** The errors of an update of `old` to `crd` (defaults applied), metadata rules excepted. */
export function validateCustomResourceDefinitionUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
  hooks: CrdValidationHooks = {},
): FieldError[] {
  const spec = internalSpec(crd);
  const oldSpec = internalSpec(old);
  const opts = updateOptions(crd, spec, old, oldSpec, hooks);
  const errors = validateSpec(spec, opts);
  if (opts.requireImmutableNames) {
    errors.push(...immutable('spec.scope', spec.scope, oldSpec.scope));
    errors.push(...immutable('spec.names.kind', spec.names.kind ?? '', oldSpec.names.kind ?? ''));
  }
  errors.push(...immutable('spec.group', spec.group, oldSpec.group));
  errors.push(...immutable('spec.names.plural', spec.names.plural ?? '', oldSpec.names.plural ?? ''));
  errors.push(...validateAfterSpec(crd, spec, { crd: old, spec: oldSpec }));
  return errors;
}

/** The errors of a `/status` write (its metadata rules are the engine's). */
export function validateCustomResourceDefinitionStatusUpdate(crd: CustomResourceDefinition): FieldError[] {
  return validateStatusNames(crd);
}
