/** VolumeAttributesClass (storage.k8s.io/v1 and v1beta1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { VolumeAttributesClass as VolumeAttributesClassSchema } from '../types/storage-v1.js';
import { VolumeAttributesClass as VolumeAttributesClassV1beta1Schema } from '../types/storage-v1beta1.js';
import { sameMap, validateParameters, validateProvisioner } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A VolumeAttributesClass object. */
export type VolumeAttributesClass = VolumeAttributesClassSchema;

/** `ValidateVolumeAttributesClass`: a driver name, and at least one parameter. */
function validateClass(vac: VolumeAttributesClass): FieldError[] {
  return [...validateProvisioner(vac.driverName, 'driverName'), ...validateParameters(vac.parameters, false, 'parameters')];
}

/** VolumeAttributesClass: driverName and parameters required and fixed once created. */
export const VolumeAttributesClassKind = defineKind<VolumeAttributesClass>({
  group: 'storage.{api_domain}',
  kind: 'VolumeAttributesClass',
  plural: 'volumeattributesclasses',
  shortNames: ['vac'],
  scope: 'Cluster',
  generation: false,
  versions: [
    lazyVersion('v1', VolumeAttributesClassSchema, { storage: true }),
    // Same shape as v1: only apiVersion differs.
    lazyVersion('v1beta1', VolumeAttributesClassV1beta1Schema),
  ],
  schemaRequired: false,
  printerColumns: [{ name: 'DriverName', type: 'string', description: 'Name of the CSI driver This field is immutable.', value: (v) => v.driverName ?? '' }],
  strategy: {
    validate: (vac, ctx) => (ctx.operation === 'create' ? validateClass(vac) : []),
    validateUpdate(vac, old) {
      // The strategy validates the class, then ValidateVolumeAttributesClassUpdate, which ends by
      // validating it again.
      const errs = validateClass(vac);
      if ((vac.driverName ?? '') !== (old.driverName ?? '')) errs.push(fieldError.forbidden('driverName', 'updates to driverName are forbidden.'));
      if (!sameMap(vac.parameters, old.parameters)) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
      return [...errs, ...validateClass(vac)];
    },
  },
});
