/** DeviceClass (resource v1, v1beta2, v1beta1; cluster-scoped). */
import { child, fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { isQualifiedName } from '../../schema/validation/names.js';
import { semanticEqual, specGeneration } from '../shared/semantic-equal.js';
import { DeviceClass as V1 } from '../types/resource-v1.js';
import { DeviceClass as V1Beta1 } from '../types/resource-v1beta1.js';
import { DeviceClass as V1Beta2 } from '../types/resource-v1beta2.js';
import { DEVICE_CONFIG_MAX, validateOpaqueHolder, validateSelectors, validateSlice } from './dra-claim-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A DeviceClass object (the v1 shape; v1beta2 and v1beta1 have the same one). */
export type DeviceClass = V1;

/**
 * `IsExtendedResourceName`: a name with a domain that is not a native resource, not starting with
 * `requests.`, and a qualified name once `requests.` is put before it.
 */
function isExtendedResourceName(name: string, reservedDomain: string): boolean {
  if (!name.includes('/') || name.includes(`${reservedDomain}/`) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** `validateDeviceClassSpec`: selectors and config are checked again only when they changed. */
function validateSpec(dc: DeviceClass, old: Readonly<DeviceClass> | undefined, reservedDomain: string): FieldError[] {
  const spec: Partial<DeviceClass['spec']> = dc.spec ?? {};
  const errors: FieldError[] = [];
  if (!old || !semanticEqual(spec.selectors, old.spec?.selectors)) errors.push(...validateSelectors(spec.selectors, 'spec.selectors'));
  const stored = old !== undefined && semanticEqual(spec.config, old.spec?.config);
  errors.push(...validateSlice(spec.config, DEVICE_CONFIG_MAX, (c, p) => validateOpaqueHolder(c.opaque, p, stored), 'spec.config'));
  const ern = spec.extendedResourceName;
  if (ern !== undefined && !isExtendedResourceName(ern, reservedDomain))
    errors.push(fieldError.invalid(child('spec', 'extendedResourceName'), ern, 'must be a valid extended resource name'));
  return errors;
}

/**
 * DeviceClass: selectors (CEL, stored not compiled, at most 10 KiB each, at most 32) and opaque
 * configuration for drivers (at most 32, parameters a JSON object of at most 10 KiB), an optional
 * extended resource name. Served at v1 (storage), v1beta2 and v1beta1, which share one shape.
 */
export const DeviceClassKind = defineKind<DeviceClass>({
  group: 'resource.{api_domain}',
  kind: 'DeviceClass',
  plural: 'deviceclasses',
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/resource/deviceclass/strategy.go).
  generation: specGeneration(V1),
  versions: [
    lazyVersion('v1', V1, { storage: true }),
    lazyVersion('v1beta2', V1Beta2 as unknown as typeof V1),
    lazyVersion('v1beta1', V1Beta1 as unknown as typeof V1),
  ],
  schemaRequired: false,
  strategy: {
    defaults(dc) {
      dc.spec ??= {};
    },
    validate: (dc, ctx) => (ctx.operation === 'create' ? validateSpec(dc, undefined, ctx.reservedDomain) : []),
    validateUpdate: (dc, old, ctx) => validateSpec(dc, old, ctx.reservedDomain),
  },
});
