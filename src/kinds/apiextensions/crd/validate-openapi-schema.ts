/**
 * The per-node rules of a definition's schema (apiextensions-apiserver validation.go
 * `ValidateCustomResourceDefinitionOpenAPISchema` and `specStandardValidatorV3`): unsupported
 * keywords, defaults where they may not be, `properties` with `additionalProperties`, the
 * `x-kubernetes-*` extensions (list and map types, list map keys, preserve-unknown-fields), the
 * shape of `x-kubernetes-validations` rules, and, when the schema is otherwise valid, their CEL
 * compilation and cost (through the `CelRuleCompiler` hook).
 */
import { child, fieldError, GoPrinted, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { goJson } from '../../../util/go-format.js';
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { costErrorMessage, maxElements, multiplyCost, STATIC_ESTIMATED_COST_LIMIT, toCost, TotalCost } from './cel-cost.js';
import type { CelRuleCompiler, SchemaStep } from './hooks.js';
import { resolveFieldPath } from './field-path.js';
import { internalItemsJson, internalRuleJson } from './internal-json.js';
import { newStructuralError } from './new-structural.js';
import {
  additionalProperties,
  hasDefault,
  hasItems,
  hasProperties,
  isObject,
  itemsArray,
  itemsSchema,
  mapEntries,
  property,
  propertyEntries,
  typeOf,
  validationRules,
} from './schema-access.js';

/** The OpenAPI v3 types, sorted. */
export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
/** The reasons a rule may give, sorted. */
export const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** What holds along a path of the walk (`specStandardValidatorV3`). */
interface Standard {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
  readonly requireValidPropertyType: boolean;
  /** The first ancestor below which old and new values cannot be correlated (oldSelf is forbidden). */
  readonly uncorrelatablePath?: string;
}

const withForbiddenDefaults = (s: Standard, reason: string): Standard => ({ ...s, allowDefaults: false, disallowDefaultsReason: reason });
const withForbidOldSelf = (s: Standard, path: string): Standard => (s.uncorrelatablePath !== undefined ? s : { ...s, uncorrelatablePath: path });

/** Where CEL compilation stands at a node (`CELSchemaContext`); absent where no rule is compiled. */
export interface CelContext {
  readonly root: JSONSchemaProps;
  readonly steps: readonly SchemaStep[];
  readonly schema: JSONSchemaProps | undefined;
  /** How many times a rule here can run per object; undefined when unbounded. */
  readonly maxCardinality: bigint | undefined;
  readonly totalCost: TotalCost;
}

/** The CEL context of the root schema (`RootCELContext`). */
export function rootCelContext(root: JSONSchemaProps): CelContext {
  return { root, steps: [], schema: root, maxCardinality: 1n, totalCost: new TotalCost() };
}

function childContext(c: CelContext | undefined, schema: JSONSchemaProps | undefined, step: SchemaStep): CelContext | undefined {
  if (!c) return undefined;
  let maxCardinality: bigint | undefined;
  if (c.schema && c.maxCardinality !== undefined) {
    const m = maxElements(c.schema);
    if (m !== undefined) maxCardinality = multiplyCost(c.maxCardinality, m);
  }
  return { root: c.root, steps: [...c.steps, step], schema, maxCardinality, totalCost: c.totalCost };
}

/** The options of the walk that do not change along a path. */
export interface SchemaWalkOptions {
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  readonly suppressPerExpressionCost: boolean;
  readonly preexistingRules: ReadonlySet<string>;
  readonly preexistingMessageExpressions: ReadonlySet<string>;
  readonly celCompiler?: CelRuleCompiler;
}

/** Schema errors and CEL errors, kept apart (CEL errors come after all schema errors). */
export interface SchemaErrors {
  readonly schemaErrors: FieldError[];
  readonly celErrors: FieldError[];
}

/** A JSON rendering of a Go `*string` or `[]string` bad value. */
const asJson = (v: unknown): GoPrinted => new GoPrinted(v === undefined ? 'null' : goJson(v));

/** `specStandardValidatorV3.validate`: keywords CustomResourceDefinitions do not support. */
function validateStandard(s: JSONSchemaProps, ssv: Standard, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = typeOf(s);
  if (ssv.requireValidPropertyType && type !== '' && !OPENAPI_V3_TYPES.includes(type))
    errors.push(fieldError.notSupported(child(path, 'type'), type, OPENAPI_V3_TYPES));
  if (hasDefault(s) && !ssv.allowDefaults)
    errors.push(fieldError.forbidden(child(path, 'default'), ssv.disallowDefaultsReason ? `must not be set ${ssv.disallowDefaultsReason}` : 'must not be set'));
  if (s.id) errors.push(fieldError.forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null)
    errors.push(fieldError.forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (mapEntries(s.patternProperties).length) errors.push(fieldError.forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (mapEntries(s.definitions).length) errors.push(fieldError.forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined && s.dependencies !== null) errors.push(fieldError.forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined && s.$ref !== null) errors.push(fieldError.forbidden(child(path, '$ref'), '$ref is not supported'));
  if (type === 'null') errors.push(fieldError.forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if ((itemsArray(s)?.length ?? 0) > 0) errors.push(fieldError.forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ssv.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true)
    errors.push(fieldError.forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errors;
}

/** `MapIsCorrelatable`: granular maps (the default) correlate old and new entries. */
const mapIsCorrelatable = (mapType: string | undefined): boolean => mapType === undefined || mapType === 'granular' || mapType === '';

/** `validateMapListKeysMapSet`: keys of map lists are required or defaulted and not nullable; set and map items are not nullable. */
export function validateMapListKeysMapSet(s: JSONSchemaProps, path: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errors: FieldError[] = [];
  if (items.nullable === true)
    errors.push(fieldError.forbidden(child(child(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(Array.isArray(items.required) ? items.required : []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const p = property(items, k);
      if (!p) continue;
      const at = key(child(child(path, 'items'), 'properties'), k);
      if (!required.has(k) && !hasDefault(p))
        errors.push(
          fieldError.required(child(at, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'),
        );
      if (p.nullable === true)
        errors.push(fieldError.forbidden(child(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errors;
}

const NEWLINES = /[\n\r]+/;

/** The shape of each `x-kubernetes-validations` rule (before any compilation). */
function validateRuleShapes(s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  validationRules(s).forEach((rule, i) => {
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const ruleText = rule.rule ?? '';
    const message = rule.message ?? '';
    const trimmedRule = ruleText.trim();
    const trimmedMsg = message.trim();
    if (trimmedRule === '') errors.push(fieldError.required(child(at, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg === '') errors.push(fieldError.invalid(child(at, 'message'), message, 'must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMsg)) errors.push(fieldError.invalid(child(at, 'message'), message, 'must not contain line breaks'));
    else if (NEWLINES.test(trimmedRule) && trimmedMsg === '')
      errors.push(fieldError.required(child(at, 'message'), 'message must be specified if rule contains line breaks'));
    const messageExpression = rule.messageExpression ?? '';
    if (messageExpression.length > 0 && messageExpression.trim() === '')
      errors.push(fieldError.required(child(at, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    if (rule.reason !== undefined && rule.reason !== null && !VALIDATION_REASONS.includes(rule.reason))
      errors.push(fieldError.notSupported(child(at, 'reason'), rule.reason, VALIDATION_REASONS));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim() === '') errors.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (NEWLINES.test(fieldPath)) errors.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'must not contain line breaks'));
    // `pathValid`: checked only where the node converts to a structural schema.
    if (fieldPath.length > 0 && newStructuralError(s) === undefined && resolveFieldPath(fieldPath, s) instanceof Error)
      errors.push(fieldError.invalid(child(at, 'fieldPath'), fieldPath, 'must be a valid path'));
  });
  return errors;
}

/** Compiles the rules of a node and reports compilation errors, costs and oldSelf misuse. */
function compileRules(s: JSONSchemaProps, path: string, ssv: Standard, opts: SchemaWalkOptions, cel: CelContext): FieldError[] {
  const compiler = opts.celCompiler;
  if (!compiler) return [];
  const rules = validationRules(s);
  const rulesPath = child(path, 'x-kubernetes-validations');
  let results;
  try {
    results = compiler.compile({
      root: cel.root,
      steps: cel.steps,
      schema: s,
      isResourceRoot: cel.steps.length === 0 || s['x-kubernetes-embedded-resource'] === true,
      preexistingRules: opts.preexistingRules,
      preexistingMessageExpressions: opts.preexistingMessageExpressions,
    });
  } catch (e) {
    return [fieldError.internal(rulesPath, e instanceof Error ? e.message : String(e))];
  }
  const errors: FieldError[] = [];
  results.forEach((cr, i) => {
    const rule = rules[i];
    if (!rule) return;
    const at = index(rulesPath, i);
    const cardinality = cel.maxCardinality ?? toCost(cr.maxCardinality);
    const cost = multiplyCost(toCost(cr.maxCost), cardinality);
    if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT)
      errors.push(fieldError.forbidden(child(at, 'rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    cel.totalCost.observe(child(at, 'rule'), cost);
    if (cr.error) {
      if (cr.error.type === 'required') errors.push(fieldError.required(child(at, 'rule'), cr.error.detail));
      else errors.push(fieldError.invalid(child(at, 'rule'), internalRuleJson(rule), cr.error.detail));
    }
    if (cr.messageExpressionError) errors.push(fieldError.invalid(child(at, 'messageExpression'), internalRuleJson(rule), cr.messageExpressionError.detail));
    else if (cr.hasMessageExpression) {
      const messageCost = toCost(cr.messageExpressionMaxCost);
      if (!opts.suppressPerExpressionCost && messageCost > STATIC_ESTIMATED_COST_LIMIT)
        errors.push(
          fieldError.forbidden(child(at, 'messageExpression'), costErrorMessage('estimated messageExpression cost', messageCost, STATIC_ESTIMATED_COST_LIMIT)),
        );
      cel.totalCost.observe(child(at, 'messageExpression'), messageCost);
    }
    if (cr.usesOldSelf) {
      if (ssv.uncorrelatablePath !== undefined)
        errors.push(
          fieldError.invalid(
            child(at, 'rule'),
            rule.rule ?? '',
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ssv.uncorrelatablePath}`,
          ),
        );
    } else if (rule.optionalOldSelf !== undefined && rule.optionalOldSelf !== null)
      errors.push(fieldError.invalid(child(at, 'optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
  });
  return errors;
}

/** The extension rules of one node (after its children). */
function validateExtensions(s: JSONSchemaProps, path: string, opts: SchemaWalkOptions): FieldError[] {
  const errors: FieldError[] = [];
  const type = typeOf(s);
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? [];
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errors.push(fieldError.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  if (mapType !== undefined && mapType !== null && type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errors.push(type === '' ? fieldError.required(child(path, 'type'), detail) : fieldError.invalid(child(path, 'type'), type, detail));
  }
  if (mapType !== undefined && mapType !== null && mapType !== 'atomic' && mapType !== 'granular')
    errors.push(fieldError.notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  const items = itemsSchema(s);
  if (listType !== undefined && listType !== null && type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errors.push(type === '' ? fieldError.required(child(path, 'type'), detail) : fieldError.invalid(child(path, 'type'), type, detail));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    const itemMapType = items['x-kubernetes-map-type'];
    if (typeOf(items) === 'array' && itemListType !== undefined && itemListType !== null && itemListType !== 'atomic')
      errors.push(fieldError.invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), asJson(itemListType), detail));
    // Kubernetes shows the items' list type here too (nil for an object, so `null`).
    if (typeOf(items) === 'object' && itemMapType !== 'atomic')
      errors.push(fieldError.invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), asJson(itemListType ?? undefined), detail));
  }
  if (listType !== undefined && listType !== null && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    errors.push(fieldError.notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  if (mapKeys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined || listType === null) errors.push(fieldError.required(child(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') errors.push(fieldError.invalid(child(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errors.push(fieldError.required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!hasItems(s)) errors.push(fieldError.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (hasItems(s) && !items)
      errors.push(
        fieldError.invalid(
          child(path, 'items'),
          new GoPrinted(goJson(internalItemsJson(s.items))),
          'must only have a single schema if x-kubernetes-list-type is map',
        ),
      );
    if (items && typeOf(items) !== 'object')
      errors.push(fieldError.invalid(child(child(path, 'items'), 'type'), typeOf(items), "must be object if parent array's x-kubernetes-list-type is map"));
    if (items && typeOf(items) === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = property(items, k);
        if (p) {
          const t = typeOf(p);
          if (t === 'array' || t === 'object')
            errors.push(
              fieldError.invalid(
                child(key(child(child(path, 'items'), 'properties'), k), 'type'),
                typeOf(items),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
              ),
            );
        } else errors.push(fieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), asJson(mapKeys), 'entries must all be names of item properties'));
        if (seen.has(k)) errors.push(fieldError.invalid(child(path, 'x-kubernetes-list-map-keys'), asJson(mapKeys), 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errors.push(...validateMapListKeysMapSet(s, path));
  return errors;
}

/** Walks one node and everything below it. */
function walk(s: JSONSchemaProps, path: string, ssv: Standard, isRoot: boolean, opts: SchemaWalkOptions, cel: CelContext | undefined): SchemaErrors {
  const schemaErrors = validateStandard(s, ssv, path);
  const celErrors: FieldError[] = [];
  const append = (r: SchemaErrors): void => {
    schemaErrors.push(...r.schemaErrors);
    celErrors.push(...r.celErrors);
  };
  if (s.uniqueItems === true)
    schemaErrors.push(fieldError.forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const ap = additionalProperties(s);
  if (ap) {
    if (hasProperties(s) && (!ap.allows || ap.schema))
      schemaErrors.push(fieldError.forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    const sub = ssv.insideResourceMeta ? withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata') : ssv;
    if (ap.schema)
      append(walk(ap.schema, child(path, 'additionalProperties'), sub, false, opts, childContext(cel, ap.schema, { kind: 'additionalProperties' })));
  }
  const mapType = s['x-kubernetes-map-type'];
  for (const [name, p] of propertyEntries(s)) {
    let sub = ssv;
    if (!mapIsCorrelatable(mapType ?? undefined)) sub = withForbidOldSelf(sub, path);
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
    }
    append(walk(p, key(child(path, 'properties'), name), sub, false, opts, childContext(cel, p, { kind: 'property', name })));
  }
  if (isObject(s.not)) append(walk(s.not as JSONSchemaProps, child(path, 'not'), ssv, false, opts, undefined));
  for (const [field, list] of [
    ['allOf', s.allOf],
    ['oneOf', s.oneOf],
    ['anyOf', s.anyOf],
  ] as const) {
    if (Array.isArray(list)) list.forEach((x, i) => isObject(x) && append(walk(x, index(child(path, field), i), ssv, false, opts, undefined)));
  }
  for (const [name, d] of mapEntries(s.definitions))
    if (isObject(d)) append(walk(d as JSONSchemaProps, key(child(path, 'definitions'), name), ssv, false, opts, undefined));
  if (hasItems(s)) {
    const sub = s['x-kubernetes-list-type'] !== 'map' ? withForbidOldSelf(ssv, path) : ssv;
    const items = itemsSchema(s);
    if (items) append(walk(items, child(path, 'items'), sub, false, opts, childContext(cel, items, { kind: 'items' })));
    (itemsArray(s) ?? []).forEach((x, i) => append(walk(x, index(child(path, 'items'), i), sub, false, opts, childContext(cel, x, { kind: 'items' }))));
  }
  for (const [name, d] of mapEntries(s.dependencies))
    if (isObject(d)) append(walk(d as JSONSchemaProps, key(child(path, 'dependencies'), name), ssv, false, opts, undefined));
  schemaErrors.push(...validateExtensions(s, path, opts));
  if (validationRules(s).length > 0) {
    schemaErrors.push(...validateRuleShapes(s, path));
    // Rules are compiled only where nothing at or below the node is wrong with the schema.
    if (schemaErrors.length === 0 && cel) celErrors.push(...compileRules(s, path, ssv, opts, cel));
  }
  return { schemaErrors, celErrors };
}

/** Validates a root `openAPIV3Schema` at `path`; `cel` is given when its rules are to be compiled. */
export function validateOpenAPISchema(
  root: JSONSchemaProps,
  path: string,
  standard: { allowDefaults: boolean; requireValidPropertyType: boolean },
  opts: SchemaWalkOptions,
  cel: CelContext | undefined,
): FieldError[] {
  const ssv: Standard = {
    allowDefaults: standard.allowDefaults,
    disallowDefaultsReason: '',
    insideResourceMeta: false,
    requireValidPropertyType: standard.requireValidPropertyType,
  };
  const r = walk(root, path, ssv, true, opts, cel);
  return [...r.schemaErrors, ...r.celErrors];
}
