/**
 * The options of an update (apiextensions-apiserver validation.go
 * `ValidateCustomResourceDefinitionUpdate`): a rule the stored definition already breaks is not
 * enforced on the update, so definitions accepted by older servers stay updatable:
 * - schemas are not required if a stored version had none, need not be structural if a stored one
 *   is not, may keep unknown types, unpruned defaults, non-atomic set items, and map-list keys that
 *   are neither required nor defaulted, if a stored schema has them;
 * - CEL rules and message expressions already stored compile in the stored-expressions
 *   environment, and versions whose schema is unchanged skip the per-expression cost limit;
 * - an unchanged list of more than 8 selectable fields stays;
 * - a ConversionReview version the server does not understand stays if it was there;
 * - the caBundle is checked only once the definition is established and its stored bundle was valid;
 * - the scope and kind become immutable once the definition is established.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { fieldNode, semanticEqual } from '../../shared/semantic-equal.js';
import { CustomResourceDefinition as CustomResourceDefinitionSchema } from '../../types/apiextensions-v1.js';
import { wouldPruneDefaults } from './unpruned-defaults.js';
import type { CrdValidationHooks } from './hooks.js';
import { schemaForVersion, type InternalSpec } from './internal.js';
import { newStructuralError } from './new-structural.js';
import type { CrdValidationOptions } from './options.js';
import { approximateGoRegexpError } from './pattern-check.js';
import { itemsSchema, schemaHas, typeOf, validationRules } from './schema-access.js';
import { validateStructural } from './structural-schema.js';
import { hasValidConversionReviewVersionOrEmpty } from './validate-conversion.js';
import { OPENAPI_V3_TYPES, validateMapListKeysMapSet } from './validate-openapi-schema.js';
import { MAX_SELECTABLE_FIELDS } from './validate-selectable-fields.js';
import { caBundleProblem } from './webhook-client.js';

function schemasOf(spec: InternalSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

const anySchema = (spec: InternalSpec, pred: (s: JSONSchemaProps) => boolean): boolean => schemasOf(spec).some((s) => schemaHas(s, pred));

/** Whether a definition's condition is `True`. */
export function conditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

function allVersionsHaveSchema(spec: InternalSpec): boolean {
  return !!spec.validation?.openAPIV3Schema || spec.versions.every((v) => !!v.schema?.openAPIV3Schema);
}

function hasNonStructuralSchema(spec: InternalSpec): boolean {
  return schemasOf(spec).some((s) => newStructuralError(s) !== undefined || validateStructural(s, '', { checkPattern: approximateGoRegexpError }).length > 0);
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  if (s['x-kubernetes-list-type'] !== 'set') return false;
  const items = itemsSchema(s);
  if (!items) return false;
  if (typeOf(items) === 'array')
    return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== null && items['x-kubernetes-list-type'] !== 'atomic';
  if (typeOf(items) === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

function expressionsOf(spec: InternalSpec): { rules: Set<string>; messageExpressions: Set<string> } {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  for (const s of schemasOf(spec))
    schemaHas(s, (n) => {
      for (const r of validationRules(n)) {
        rules.add(r.rule ?? '');
        if (r.messageExpression) messageExpressions.add(r.messageExpression);
      }
      return false;
    });
  return { rules, messageExpressions };
}

const validationNode = () => fieldNode(CustomResourceDefinitionSchema(), 'spec', 'versions', '[]', 'schema');
const selectableNode = () => fieldNode(CustomResourceDefinitionSchema(), 'spec', 'versions', '[]', 'selectableFields');

/** The options of an update of `old` to `crd` (both in internal form too). */
export function updateOptions(
  crd: CustomResourceDefinition,
  spec: InternalSpec,
  old: CustomResourceDefinition,
  oldSpec: InternalSpec,
  hooks: CrdValidationHooks,
): CrdValidationOptions {
  const established = conditionTrue(old, 'Established');
  const unchanged = new Set<string>();
  const schemaNode = validationNode();
  for (const v of spec.versions) {
    if (semanticEqual(schemaForVersion(spec, v.name), schemaForVersion(oldSpec, v.name), schemaNode)) unchanged.add(v.name);
  }
  const tooMany = new Set<string>();
  const fieldsNode = selectableNode();
  if (oldSpec.selectableFields.length > MAX_SELECTABLE_FIELDS && semanticEqual(spec.selectableFields, oldSpec.selectableFields, fieldsNode)) tooMany.add('');
  for (const v of spec.versions) {
    const ov = oldSpec.versions.find((x) => x.name === v.name);
    if (ov && ov.selectableFields.length > MAX_SELECTABLE_FIELDS && semanticEqual(v.selectableFields, ov.selectableFields, fieldsNode)) tooMany.add(v.name);
  }
  const oldConversion = oldSpec.conversion;
  const oldCABundle = oldConversion?.webhookClientConfig?.caBundle;
  const expressions = expressionsOf(oldSpec);
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: !oldConversion || hasValidConversionReviewVersionOrEmpty(oldConversion.conversionReviewVersions),
    requireImmutableNames: established,
    requireOpenAPISchema: allVersionsHaveSchema(oldSpec),
    requireValidPropertyType: !anySchema(oldSpec, (s) => typeOf(s) !== '' && !OPENAPI_V3_TYPES.includes(typeOf(s))),
    requireStructuralSchema: !hasNonStructuralSchema(oldSpec),
    requirePrunedDefaults: !schemasOf(oldSpec).some(wouldPruneDefaults),
    requireAtomicSetType: !anySchema(oldSpec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !anySchema(oldSpec, (s) => validateMapListKeysMapSet(s, '').length > 0),
    preexistingRules: expressions.rules,
    preexistingMessageExpressions: expressions.messageExpressions,
    versionsWithUnchangedSchemas: unchanged,
    allowInvalidCABundle: !established || (!!oldCABundle && caBundleProblem(oldCABundle) !== undefined),
    allowTooManySelectableFields: tooMany,
    hooks,
  };
}
