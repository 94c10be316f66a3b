/**
 * The validation of a custom resource, in the order apiextensions-apiserver runs it
 * (pkg/registry/customresource `customResourceStrategy.Validate`/`ValidateUpdate` and the status
 * strategy's): the version's OpenAPI schema (with ratcheting on update), the scale subresource's
 * fields, the metadata of embedded resources, then the invariants of set and map lists (on update
 * only when the old object met them).
 */
import type { FieldError } from '../../../machinery/field-errors.js';
import { validateCustomValue, validateEmbeddedResources, validateListSetsAndMaps, type CompiledCustomSchema } from '../../../schema/custom/index.js';
import type { KubeObject, ScaleSubresource } from '../../../schema/define-kind.js';
import { getOwn } from '../../../util/own.js';
import { objectMetaStructural } from './published-schema.js';
import { validateScaleSpec, validateScaleStatus } from './scale-rules.js';

/** A new object's rules. */
export function validateCreate(obj: KubeObject, compiled: CompiledCustomSchema | undefined, scale: ScaleSubresource | undefined): FieldError[] {
  if (!compiled) return [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)];
  return [
    ...validateCustomValue(compiled.root, obj),
    ...validateScaleSpec(obj, scale),
    ...validateScaleStatus(obj, scale),
    ...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }),
    ...validateListSetsAndMaps(obj, compiled.root),
  ];
}

/** An update's rules: errors on values left unchanged are dropped (validation ratcheting). */
export function validateUpdate(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  compiled: CompiledCustomSchema | undefined,
  scale: ScaleSubresource | undefined,
): FieldError[] {
  if (!compiled) return [...validateScaleSpec(obj, scale), ...validateScaleStatus(obj, scale)];
  const correlation = compiled.correlate(obj, old);
  return [
    ...validateCustomValue(compiled.root, obj, { correlation }),
    ...validateScaleSpec(obj, scale),
    ...validateScaleStatus(obj, scale),
    ...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }),
    ...(validateListSetsAndMaps(old, compiled.root).length === 0 ? validateListSetsAndMaps(obj, compiled.root) : []),
  ];
}

/** A `/status` update's rules: `status` against its own schema, with ratcheting. */
export function validateStatusUpdate(
  obj: KubeObject,
  old: Readonly<KubeObject>,
  compiled: CompiledCustomSchema | undefined,
  scale: ScaleSubresource | undefined,
): FieldError[] {
  if (!compiled) return validateScaleStatus(obj, scale);
  const errors: FieldError[] = [];
  const status = getOwn(obj, 'status');
  if (status !== undefined && compiled.status) {
    const correlation = compiled.correlate(obj, old).key('status');
    errors.push(...validateCustomValue(compiled.status, status, { basePath: 'status', ...(correlation ? { correlation } : {}) }));
  }
  errors.push(...validateScaleStatus(obj, scale));
  errors.push(...validateEmbeddedResources(obj, compiled.root, { objectMeta: objectMetaStructural() }));
  if (validateListSetsAndMaps(old, compiled.root).length === 0) errors.push(...validateListSetsAndMaps(obj, compiled.root));
  return errors;
}
