/**
 * `ValidateCustomResourceDefinition` (apiextensions-apiserver/pkg/apis/apiextensions/validation
 * validation.go): the rules of a definition on create, over its internal form (`internal.ts`),
 * in Kubernetes' order. Metadata rules other than the name are the engine's.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import type { CustomResourceDefinition } from '../../types/apiextensions-v1.js';
import { validateAPIApproval } from './api-approval.js';
import type { CrdValidationHooks } from './hooks.js';
import { internalSpec, type InternalSpec } from './internal.js';
import { createOptions, type CrdValidationOptions } from './options.js';
import { schemaHas } from './schema-access.js';
import { schemaNestingErrors } from './schema-depth.js';
import { validateStoredVersions } from './stored-versions.js';
import { validateColumn } from './validate-columns.js';
import { validateConversion } from './validate-conversion.js';
import { CRD_SCOPES, validateDefinitionName, validateEnum, validateGroup, validateNames, validateRequiredNames } from './validate-names.js';
import { validateSchema } from './validate-schema.js';
import { validateSelectableFields } from './validate-selectable-fields.js';
import { hasStatus, validateSubresources } from './validate-subresources.js';
import { validateVersions } from './validate-versions.js';
import { newStructuralError } from './new-structural.js';

/** Every schema of the spec: the top-level one and each version's. */
function schemas(spec: InternalSpec): NonNullable<NonNullable<InternalSpec['validation']>['openAPIV3Schema']>[] {
  const out = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

const hasDefaults = (spec: InternalSpec): boolean => schemas(spec).some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null));

const hasKubernetesExtensions = (spec: InternalSpec): boolean =>
  schemas(spec).some((s) =>
    schemaHas(
      s,
      (n) =>
        n['x-kubernetes-embedded-resource'] === true ||
        (n['x-kubernetes-preserve-unknown-fields'] !== undefined && n['x-kubernetes-preserve-unknown-fields'] !== null) ||
        n['x-kubernetes-int-or-string'] === true ||
        (n['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ||
        (n['x-kubernetes-list-type'] !== undefined && n['x-kubernetes-list-type'] !== null) ||
        (n['x-kubernetes-validations']?.length ?? 0) > 0,
    ),
  );

/** `validateCustomResourceDefinitionSpec`, at `spec`. */
export function validateSpec(spec: InternalSpec, opts: CrdValidationOptions): FieldError[] {
  const path = 'spec';
  const errors = validateGroup(spec.group, child(path, 'group'));
  errors.push(...validateEnum(spec.scope, CRD_SCOPES, child(path, 'scope')));
  // Pruning (preserveUnknownFields false, always so in v1 unless set) needs structural schemas.
  let requireStructural = opts.requireStructuralSchema || !spec.preserveUnknownFields;
  if (opts.requireOpenAPISchema) {
    if (!spec.validation?.openAPIV3Schema)
      spec.versions.forEach((v, i) => {
        if (!v.schema?.openAPIV3Schema) errors.push(fieldError.required(`${path}.versions[${i}].schema.openAPIV3Schema`, ''));
      });
  } else if (!spec.preserveUnknownFields && !spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      if (v.served && !v.schema?.openAPIV3Schema)
        errors.push(fieldError.required(`${path}.versions[${i}].schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
    });
  }
  if (opts.allowDefaults && hasDefaults(spec)) {
    requireStructural = true;
    if (spec.preserveUnknownFields)
      errors.push(fieldError.invalid(child(path, 'preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  if (hasKubernetesExtensions(spec)) requireStructural = true;

  errors.push(...validateVersions(spec, opts, requireStructural, path));
  errors.push(...validateRequiredNames(spec.names, child(path, 'names')));
  errors.push(...validateNames(spec.names, child(path, 'names')));

  const validationPath = child(path, 'validation');
  const deep = schemaNestingErrors(spec.validation?.openAPIV3Schema, child(validationPath, 'openAPIV3Schema'));
  if (deep.length) errors.push(...deep);
  else {
    const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
    errors.push(...validateSchema(spec.validation, anyStatus, opts.versionsWithUnchangedSchemas.has(spec.version), opts, requireStructural, validationPath));
  }
  errors.push(...validateSubresources(spec.subresources, child(path, 'subresources')));
  spec.additionalPrinterColumns.forEach((c, i) => errors.push(...validateColumn(c, index(child(path, 'additionalPrinterColumns'), i))));
  if (spec.selectableFields.length) {
    const schema = spec.validation?.openAPIV3Schema;
    if (!spec.validation) errors.push(fieldError.invalid(child(path, 'selectableFields'), '', 'may only be set when validations.schema is included'));
    else if (schema && !deep.length) {
      const err = newStructuralError(schema);
      if (err) errors.push(fieldError.invalid(child(path, 'schema.openAPIV3Schema'), '', err));
      errors.push(...validateSelectableFields(spec.selectableFields, schema, child(path, 'selectableFields'), opts.allowTooManySelectableFields.has('')));
    }
  }
  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields)
    errors.push(fieldError.invalid(`${path}.conversion.strategy`, spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  errors.push(...validateConversion(spec.conversion, opts, child(path, 'conversion')));
  return errors;
}

/** `validatePreserveUnknownFields`: v1 definitions may not turn `preserveUnknownFields` on. */
export function validatePreserveUnknownFields(spec: InternalSpec, old: InternalSpec | undefined): FieldError[] {
  if (old?.preserveUnknownFields) return [];
  return spec.preserveUnknownFields
    ? [
        fieldError.invalid(
          'spec.preserveUnknownFields',
          true,
          'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
        ),
      ]
    : [];
}

/** `ValidateCustomResourceDefinitionStatus`: the accepted names. */
export function validateStatusNames(crd: CustomResourceDefinition): FieldError[] {
  return validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames');
}

/** The rules after the spec: status names, stored versions, API approval, preserveUnknownFields. */
export function validateAfterSpec(
  crd: CustomResourceDefinition,
  spec: InternalSpec,
  old?: { crd: CustomResourceDefinition; spec: InternalSpec },
): FieldError[] {
  return [
    ...validateStatusNames(crd),
    ...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions, 'status.storedVersions'),
    ...validateAPIApproval(spec.group, crd.metadata?.annotations, old ? { annotations: old.crd.metadata?.annotations } : undefined),
    ...validatePreserveUnknownFields(spec, old?.spec),
  ];
}

/**
 * `ValidateCustomResourceDefinition`: the errors of a new definition (defaults already applied),
 * metadata other than the name rule excepted. `hooks` compile CEL rules and validate defaults.
 */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, hooks: CrdValidationHooks = {}): FieldError[] {
  return validateCustomResourceDefinitionWith(crd, createOptions(hooks));
}

/** The create rules with explicit options. */
export function validateCustomResourceDefinitionWith(crd: CustomResourceDefinition, opts: CrdValidationOptions): FieldError[] {
  const spec = internalSpec(crd);
  return [
    // The engine reports a missing name; the rule applies to a name that is there.
    ...(crd.metadata?.name ? validateDefinitionName(crd.metadata.name, spec.names.plural ?? '', spec.group) : []),
    ...validateSpec(spec, opts),
    ...validateAfterSpec(crd, spec),
  ];
}
