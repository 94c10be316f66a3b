/**
 * One `schema` of a definition (apiextensions-apiserver validation.go
 * `validateCustomResourceDefinitionValidation`): what the root may hold when the status
 * subresource is on, no `nullable` root, the structural rules, the defaults, the per-node rules
 * and CEL rules, and the total cost of the rules.
 */
import { child, fieldError, GoPrinted, type FieldError } from '../../../machinery/field-errors.js';
import { goJson } from '../../../util/go-format.js';
import type { CustomResourceValidation, JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { costErrorMessage, STATIC_ESTIMATED_CRD_COST_LIMIT } from './cel-cost.js';
import { internalSchemaJson } from './internal-json.js';
import { newStructuralError } from './new-structural.js';
import type { CrdValidationOptions } from './options.js';
import { approximateGoRegexpError } from './pattern-check.js';
import { validateStructural } from './structural-schema.js';
import { validateDefaults } from './validate-defaults.js';
import { rootCelContext, validateOpenAPISchema, type CelContext } from './validate-openapi-schema.js';

/** The fields the root may hold with the status subresource on (`allowedFieldsAtRootSchema`), by their v1 names. */
const ALLOWED_AT_ROOT = new Set([
  'description',
  'type',
  'format',
  'title',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'required',
  'items',
  'properties',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
]);
/** The same list, in Go's names, as Kubernetes prints it. */
const ALLOWED_AT_ROOT_GO =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';
/**
 * Whether a root field holds its Go zero value (skipped by the status-subresource root check). A
 * decoded empty list or map is not nil, so it counts as set.
 */
function isZero(k: string, v: unknown): boolean {
  if (k === 'default' || k === 'example') return v === undefined || v === null;
  return v === undefined || v === null || v === false || v === '';
}

/** The Go struct order of the fields, so the first offending field is Kubernetes' first. */
const GO_FIELD_ORDER = [
  'id',
  '$schema',
  '$ref',
  'description',
  'type',
  'nullable',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependencies',
  'additionalItems',
  'definitions',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
];

function validateStatusRoot(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const k of GO_FIELD_ORDER) {
    const v = (schema as Record<string, unknown>)[k];
    if (isZero(k, v)) continue;
    if (k === 'type') {
      if (schema.type !== 'object')
        return [
          fieldError.invalid(
            `${path}.openAPIV3Schema.type`,
            schema.type,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      continue;
    }
    if (!ALLOWED_AT_ROOT.has(k))
      return [
        fieldError.invalid(
          `${path}.openAPIV3Schema`,
          new GoPrinted(goJson(internalSchemaJson(schema))),
          `only ${ALLOWED_AT_ROOT_GO} fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
  }
  return [];
}

/** Validates `validation` (a version's `schema` or the top-level one) at `path`. */
export function validateSchema(
  validation: CustomResourceValidation | undefined,
  statusEnabled: boolean,
  suppressPerExpressionCost: boolean,
  opts: CrdValidationOptions,
  requireStructuralSchema: boolean,
  path: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema ?? undefined;
  if (!validation || !schema) return [];
  const errors: FieldError[] = [];
  if (statusEnabled) errors.push(...validateStatusRoot(schema, path));
  const schemaPath = child(path, 'openAPIV3Schema');
  if (schema.nullable === true) errors.push(fieldError.forbidden(`${schemaPath}.nullable`, 'nullable cannot be true at the root'));

  let cel: CelContext | undefined;
  const initErrors: FieldError[] = [];
  if (requireStructuralSchema) {
    const structuralError = newStructuralError(schema);
    if (structuralError) initErrors.push(fieldError.invalid(schemaPath, '', structuralError));
    else {
      const checkPattern = opts.hooks.checkPattern ?? approximateGoRegexpError;
      const structural = validateStructural(schema, schemaPath, { checkPattern });
      if (structural.length) errors.push(...structural);
      else {
        const defaults = validateDefaults(schema, schemaPath, opts.requirePrunedDefaults, opts.hooks.defaultValidator);
        if (defaults.length) errors.push(...defaults);
        else cel = rootCelContext(schema);
      }
    }
  }
  errors.push(
    ...validateOpenAPISchema(
      schema,
      schemaPath,
      { allowDefaults: opts.allowDefaults, requireValidPropertyType: opts.requireValidPropertyType },
      {
        requireAtomicSetType: opts.requireAtomicSetType,
        requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
        suppressPerExpressionCost,
        preexistingRules: opts.preexistingRules,
        preexistingMessageExpressions: opts.preexistingMessageExpressions,
        celCompiler: opts.hooks.celCompiler,
      },
      cel,
    ),
  );
  // NewStructural's errors repeat what the per-node rules say: shown only when those found nothing.
  if (errors.length === 0) errors.push(...initErrors);
  if (cel && cel.totalCost.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const expensive of cel.totalCost.mostExpensive)
      errors.push(fieldError.forbidden(expensive.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errors.push(
      fieldError.forbidden(
        schemaPath,
        costErrorMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          cel.totalCost.total,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return errors;
}
