/** CSIStorageCapacity (storage.k8s.io/v1, namespaced). */
import { badRequest } from '../../machinery/errors.js';
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { validateLabelSelector } from '../shared/label-selector-validation.js';
import { normalizeQuantity, QuantityDecodeError, quantityText, quantityValue } from '../shared/resource-lists.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { CSIStorageCapacity as CSIStorageCapacitySchema } from '../types/storage-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A CSIStorageCapacity object. */
export type CSIStorageCapacity = CSIStorageCapacitySchema;

/** `ValidateCSIStorageCapacity` (metadata is the engine's). */
function validateCapacity(c: CSIStorageCapacity): FieldError[] {
  const errs: FieldError[] = [];
  if (c.nodeTopology) errs.push(...validateLabelSelector(c.nodeTopology, 'nodeTopology'));
  const className = c.storageClassName ?? '';
  errs.push(...isDNS1123Subdomain(className).map((m) => fieldError.invalid('storageClassName', className, m)));
  const q = c.capacity !== undefined ? quantityValue(c.capacity) : undefined;
  if (q && q.nanos < 0n) errs.push(fieldError.invalid('capacity', c.capacity, 'must be greater than or equal to 0'));
  return errs;
}

const topologyEqual = semanticEqualAt(CSIStorageCapacitySchema, 'nodeTopology');

/** CSIStorageCapacity: capacity of a storage class in a topology; nodeTopology and storageClassName fixed. */
export const CSIStorageCapacityKind = defineKind<CSIStorageCapacity>({
  group: 'storage.{api_domain}',
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  scope: 'Namespaced',
  generation: false,
  versions: [lazyVersion('v1', CSIStorageCapacitySchema, { storage: true })],
  schemaRequired: false,
  // Kubernetes prints no Age for CSIStorageCapacities.
  ageColumn: false,
  printerColumns: [
    {
      name: 'StorageClassName',
      type: 'string',
      description: 'storageClassName represents the name of the StorageClass that the reported capacity applies to.',
      value: (c) => c.storageClassName ?? '',
    },
    {
      name: 'Capacity',
      type: 'string',
      description:
        'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.',
      value: (c) => {
        const q = c.capacity !== undefined ? quantityValue(c.capacity) : undefined;
        return q ? quantityText(q) : '<unset>';
      },
    },
  ],
  strategy: {
    defaults(c) {
      // Quantities are stored in Go's canonical form; one that does not parse fails decoding (400).
      try {
        if (c.capacity !== undefined) c.capacity = normalizeQuantity(c.capacity, false);
        if (c.maximumVolumeSize !== undefined) c.maximumVolumeSize = normalizeQuantity(c.maximumVolumeSize, false);
      } catch (e) {
        if (e instanceof QuantityDecodeError) throw badRequest(`CSIStorageCapacity in version "v1" cannot be handled as a CSIStorageCapacity: ${e.message}`);
        throw e;
      }
    },
    validate: (c, ctx) => (ctx.operation === 'create' ? validateCapacity(c) : []),
    validateUpdate(c, old) {
      // ValidateCSIStorageCapacityUpdate only: the inputs of GetCapacity may not change.
      const errs: FieldError[] = [];
      if (!topologyEqual(c.nodeTopology, old.nodeTopology)) errs.push(immutableFieldError('nodeTopology', c.nodeTopology ?? null));
      if ((c.storageClassName ?? '') !== (old.storageClassName ?? '')) errs.push(immutableFieldError('storageClassName', c.storageClassName ?? ''));
      return errs;
    },
  },
});
