/** PersistentVolumeClaim (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { PersistentVolumeClaim as PersistentVolumeClaimSchema } from '../types/core-v1.js';
import { defaultPersistentVolumeClaim, persistentVolumeClaimWarnings, validatePersistentVolumeClaimSpec } from '../shared/persistent-volume-claim-rules.js';
import { validatePersistentVolumeClaimUpdate } from './persistent-volume-claim/update.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PersistentVolumeClaim object. */
export type PersistentVolumeClaim = PersistentVolumeClaimSchema;

/**
 * PersistentVolumeClaim. The spec is immutable once created (bound claims may change their storage
 * request and attributes class); status changes through `/status` only and starts as Pending.
 */
export const PersistentVolumeClaimKind = defineKind<PersistentVolumeClaim>({
  group: '',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  shortNames: ['pvc'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/persistentvolumeclaim/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', PersistentVolumeClaimSchema, { storage: true })],
  printerColumns: [
    { name: 'Status', type: 'string', value: (c) => c.status?.phase },
    { name: 'Volume', type: 'string', value: (c) => c.spec?.volumeName ?? '' },
    { name: 'Capacity', type: 'string', value: (c) => c.status?.capacity?.storage ?? '' },
    {
      name: 'Access Modes',
      type: 'string',
      value: (c) =>
        (c.status?.accessModes ?? [])
          .map((m) => ({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' })[m as 'ReadWriteOnce'] ?? m)
          .join(','),
    },
    { name: 'StorageClass', type: 'string', value: (c) => c.spec?.storageClassName ?? '' },
    { name: 'VolumeAttributesClass', type: 'string', value: (c) => c.spec?.volumeAttributesClassName ?? '<unset>' },
    { name: 'Age', type: 'date', value: (c) => c.metadata?.creationTimestamp },
  ],
  statusSubresource: true,
  deletion: { returnDeletedObject: true },
  strategy: {
    defaults: (pvc) => defaultPersistentVolumeClaim(pvc),
    validate: (pvc) => validatePersistentVolumeClaimSpec(pvc.spec),
    validateUpdate: (pvc, old, ctx) => validatePersistentVolumeClaimUpdate(pvc, old, ctx.reservedDomain),
    warnings: (pvc, _old, ctx) => persistentVolumeClaimWarnings(pvc, ctx.reservedDomain),
  },
});
