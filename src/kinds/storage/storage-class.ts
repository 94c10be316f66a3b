/** StorageClass (storage.k8s.io/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { StorageClass as StorageClassSchema } from '../types/storage-v1.js';
import { sameMap, validateAllowedTopologies, validateParameters, validateProvisioner } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A StorageClass object. */
export type StorageClass = StorageClassSchema;

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

/** `storageutil.IsDefaultAnnotation`: the GA or beta default-class annotation is `"true"`. */
export function isDefaultClass(sc: Readonly<{ metadata?: { annotations?: Record<string, string> } }>): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
}

/** `ValidateStorageClass` (metadata is the engine's). */
function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = [...validateProvisioner(sc.provisioner, 'provisioner'), ...validateParameters(sc.parameters, true, 'parameters')];
  if (sc.reclaimPolicy && !RECLAIM_POLICIES.includes(sc.reclaimPolicy)) errs.push(fieldError.notSupported('reclaimPolicy', sc.reclaimPolicy, RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) errs.push(fieldError.required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(sc.volumeBindingMode)) errs.push(fieldError.notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies, 'allowedTopologies'));
  return errs;
}

/** `ValidateStorageClassUpdate`. */
function validateStorageClassUpdate(sc: StorageClass, old: Readonly<StorageClass>): FieldError[] {
  const errs: FieldError[] = [];
  if (!sameMap(sc.parameters, old.parameters)) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if ((sc.provisioner ?? '') !== (old.provisioner ?? '')) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) errs.push(immutableFieldError('volumeBindingMode', sc.volumeBindingMode ?? null));
  return errs;
}

/**
 * StorageClass: reclaimPolicy (Delete) and volumeBindingMode (Immediate) defaulted; provisioner
 * required; provisioner, parameters, reclaimPolicy and volumeBindingMode fixed once created.
 */
export const StorageClassKind = defineKind<StorageClass>({
  group: 'storage.{api_domain}',
  kind: 'StorageClass',
  plural: 'storageclasses',
  shortNames: ['sc'],
  scope: 'Cluster',
  // pkg/registry/storage/storageclass/strategy.go never sets a generation.
  generation: false,
  versions: [lazyVersion('v1', StorageClassSchema, { storage: true })],
  schemaRequired: false,
  printerColumns: [
    { name: 'Name', type: 'string', value: (sc) => `${sc.metadata?.name ?? ''}${isDefaultClass(sc) ? ' (default)' : ''}` },
    { name: 'Provisioner', type: 'string', description: 'provisioner indicates the type of the provisioner.', value: (sc) => sc.provisioner ?? '' },
    {
      name: 'ReclaimPolicy',
      type: 'string',
      description: 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
      value: (sc) => sc.reclaimPolicy ?? 'Delete',
    },
    {
      name: 'VolumeBindingMode',
      type: 'string',
      description:
        'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
      value: (sc) => sc.volumeBindingMode ?? 'Immediate',
    },
    {
      name: 'AllowVolumeExpansion',
      type: 'string',
      description: 'allowVolumeExpansion shows whether the storage class allow volume expand.',
      value: (sc) => sc.allowVolumeExpansion ?? false,
    },
  ],
  strategy: {
    defaults(sc) {
      // SetDefaults_StorageClass.
      sc.reclaimPolicy ??= 'Delete';
      sc.volumeBindingMode ??= 'Immediate';
    },
    validate: (sc) => validateStorageClass(sc),
    validateUpdate: (sc, old) => validateStorageClassUpdate(sc, old),
  },
});
