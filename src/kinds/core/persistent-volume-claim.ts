/** PersistentVolumeClaim (core v1). */
import { defineKind } from '../../schema/define-kind.js';
import { PersistentVolumeClaim as PersistentVolumeClaimSchema } from '../types/core-v1.js';

/** A PersistentVolumeClaim object. */
export type PersistentVolumeClaim = PersistentVolumeClaimSchema;

/** PersistentVolumeClaim. */
export const PersistentVolumeClaimKind = defineKind<PersistentVolumeClaim>({
  group: '',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  shortNames: ['pvc'],
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: PersistentVolumeClaimSchema, served: true, storage: true }],
  statusSubresource: true,
  deletion: { returnDeletedObject: true },
});
