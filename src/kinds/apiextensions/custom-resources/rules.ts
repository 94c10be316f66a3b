/**
 * The validation of a custom resource, in the order apiextensions-apiserver runs it
 * (pkg/registry/customresource `customResourceStrategy.Validate`/`ValidateUpdate` and the status
 * strategy's): the version's OpenAPI schema (with ratcheting on update), the scale subresource's
 * fields, the metadata of embedded resources, then the invariants of set and map lists (on update
 * only when the old object met them).
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateCustomValue, validateEmbeddedResources, validateListSetsAndMaps, type CompiledCustomSchema } from '../../../schema/custom/index.js';
import type { KubeObject, ScaleSubresource } from '../../../schema/define-kind.js';
import { getOwn } from '../../../util/own.js';
import { objectMetaStructural } from './published-schema.js';
import { validateScaleSpec, validateScaleStatus } from './scale-rules.js';
import type { CelRules } from './cel-rules.js';

/** A compiled version schema with its CEL rules. */
export interface VersionRules {
  readonly schema: CompiledCustomSchema;
  readonly cel: CelRules;
}

/** Warnings a validation left for the write's answer (CEL errors that ratcheting let through). */
const pendingWarnings = new WeakMap<object, string[]>();

/** The warnings validation left on `obj`, once. */
export function takeValidationWarnings(obj: object): string[] {
  const w = pendingWarnings.get(obj) ?? [];
  pendingWarnings.delete(obj);
  return w;
}

/**
 * Kubernetes runs no CEL rule while the object has errors CEL cannot see past (a wrong type, a
 * missing required field, a value too long, too many items, an unsupported value): it reports
 * this instead (pkg/registry/customresource/strategy.go `hasBlockingErr`).
 */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

function withCel(obj: KubeObject, errors: FieldError[], run: () => { errors: FieldError[]; warnings: string[] }): FieldError[] {
  if (errors.some((e) => BLOCKING.has(e.type))) {
    return [
      ...errors,
      fieldError.invalid(
        '<nil>',
        null,
        'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ),
    ];
  }
  const outcome = run();
  if (outcome.warnings.length) pendingWarnings.set(obj, outcome.warnings);
  return [...errors, ...outcome.errors];
}

/** A new object's rules. */
export function validateCreate(obj: KubeObject, rules: VersionRules | undefined, scale: ScaleSubresource | undefined): FieldError[] {
  if (!rules) return [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)];
  const compiled = rules.schema;
  const errors = [
    ...validateCustomValue(compiled.root, obj),
    ...validateScaleSpec(obj, scale),
    ...validateScaleStatus(obj, scale),
    ...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }),
    ...validateListSetsAndMaps(obj, compiled.root),
  ];
  return withCel(obj, errors, () => rules.cel.validate(obj, undefined));
}

/**
 * Reports the time an update's validation spent comparing new values with old ones, for
 * `apiextensions_apiserver_validation_ratcheting_seconds` (upstream observes it once per update
 * of a custom resource, its `/status` included, in the strategies' `ValidateUpdate`).
 * @category Defining kinds
 */
export type RatchetingObserver = (seconds: number) => void;

/** An update's rules: errors on values left unchanged are dropped (validation ratcheting). */
export function validateUpdate(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  rules: VersionRules | undefined,
  scale: ScaleSubresource | undefined,
  onRatcheting?: RatchetingObserver,
): FieldError[] {
  if (!rules) return [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)];
  const compiled = rules.schema;
  const correlation = compiled.correlate(obj, old);
  try {
    return updateErrors(obj, old, rules, scale, correlation);
  } finally {
    onRatcheting?.(correlation.comparisonSeconds);
  }
}

function updateErrors(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  rules: VersionRules,
  scale: ScaleSubresource | undefined,
  correlation: ReturnType<VersionRules['schema']['correlate']>,
): FieldError[] {
  const compiled = rules.schema;
  const errors = [
    ...validateCustomValue(compiled.root, obj, { correlation }),
    ...validateScaleSpec(obj, scale),
    ...validateScaleStatus(obj, scale),
    ...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }),
    ...(validateListSetsAndMaps(old, compiled.root).length === 0 ? validateListSetsAndMaps(obj, compiled.root) : []),
  ];
  return withCel(obj, errors, () => rules.cel.validate(obj, correlation));
}

/** A `/status` update's rules: `status` against its own schema, with ratcheting. */
export function validateStatusUpdate(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  rules: VersionRules | undefined,
  scale: ScaleSubresource | undefined,
  onRatcheting?: RatchetingObserver,
): FieldError[] {
  if (!rules) return validateScaleStatus(obj, scale);
  const root = rules.schema.correlate(obj, old);
  try {
    return statusUpdateErrors(obj, old, rules, scale, root);
  } finally {
    onRatcheting?.(root.comparisonSeconds);
  }
}

function statusUpdateErrors(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  rules: VersionRules,
  scale: ScaleSubresource | undefined,
  root: ReturnType<VersionRules['schema']['correlate']>,
): FieldError[] {
  const compiled = rules.schema;
  const errors: FieldError[] = [];
  const status = getOwn(obj, 'status');
  if (status !== undefined && compiled.status) {
    const correlation = root.key('status');
    errors.push(...validateCustomValue(compiled.status, status, { basePath: 'status', ...(correlation ? { correlation } : {}) }));
  }
  errors.push(...validateScaleStatus(obj, scale));
  errors.push(...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }));
  if (validateListSetsAndMaps(old, compiled.root).length === 0) errors.push(...validateListSetsAndMaps(obj, compiled.root));
  return withCel(obj, errors, () => rules.cel.validate(obj, root));
}
