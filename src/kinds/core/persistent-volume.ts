/** PersistentVolume (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { PersistentVolume as PersistentVolumeSchema } from '../types/core-v1.js';
import { normalizeResourceList, QuantityDecodeError } from '../shared/resource-lists.js';
import { betaStorageClassAnnotation } from '../shared/persistent-volume-claim-rules.js';
import { PV_SOURCES, validatePersistentVolumeSpec, validatePersistentVolumeUpdate } from './persistent-volume/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A PersistentVolume object. */
export type PersistentVolume = PersistentVolumeSchema;

/** The server's time as metav1.Time serializes it (RFC 3339, whole seconds). */
function nowText(ctx: KindContext): string {
  return new Date(Math.floor(ctx.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** `SetObjectDefaults_PersistentVolume`: reclaim policy, volume mode, phase, hostPath type, canonical capacity. */
function defaultPersistentVolume(pv: PersistentVolume): void {
  const spec = (pv.spec ??= {});
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  spec.volumeMode ??= 'Filesystem';
  if (spec.hostPath) spec.hostPath.type ??= '';
  if (pv.status && !pv.status.phase) pv.status.phase = 'Pending';
  try {
    normalizeResourceList(spec.capacity as Record<string, string | number> | undefined, false);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`PersistentVolume in version "v1" cannot be handled as a PersistentVolume: ${e.message}`);
    throw e;
  }
}

/** `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order. */
function accessModesText(modes: readonly string[] | undefined): string {
  const m = modes ?? [];
  return (
    [
      ['ReadWriteOnce', 'RWO'],
      ['ReadOnlyMany', 'ROX'],
      ['ReadWriteMany', 'RWX'],
      ['ReadWriteOncePod', 'RWOP'],
    ] as const
  )
    .filter(([mode]) => m.includes(mode))
    .map(([, short]) => short)
    .join(',');
}

/** Deprecated volume types a create warns about (`warningsForPersistentVolumeSpecAndMeta`). */
const DEPRECATED_SOURCES: Record<string, string> = {
  photonPersistentDisk: 'deprecated in v1.11, non-functional in v1.16+',
  scaleIO: 'deprecated in v1.16, non-functional in v1.22+',
  flocker: 'deprecated in v1.22, non-functional in v1.25+',
  storageos: 'deprecated in v1.22, non-functional in v1.25+',
  quobyte: 'deprecated in v1.22, non-functional in v1.25+',
  glusterfs: 'deprecated in v1.25, non-functional in v1.26+',
  cephfs: 'deprecated in v1.28, non-functional in v1.31+',
  rbd: 'deprecated in v1.28, non-functional in v1.31+',
};

/**
 * PersistentVolume: the v1 defaults, `ValidatePersistentVolume` on create and update, the immutable
 * volume source, `/status` with its phase transition time (pkg/registry/core/persistentvolume).
 */
export const PersistentVolumeKind = defineKind<PersistentVolume>({
  group: '',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  shortNames: ['pv'],
  scope: 'Cluster',
  // No generation: pkg/registry/core/persistentvolume/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', PersistentVolumeSchema, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: [
    { name: 'Capacity', type: 'string', value: (pv) => String(pv.spec?.capacity?.['storage'] ?? '0') },
    { name: 'Access Modes', type: 'string', value: (pv) => accessModesText(pv.spec?.accessModes) },
    { name: 'Reclaim Policy', type: 'string', value: (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? '' },
    { name: 'Status', type: 'string', value: (pv) => (pv.metadata?.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? '')) },
    { name: 'Claim', type: 'string', value: (pv) => (pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '') },
    {
      name: 'StorageClass',
      type: 'string',
      value: (pv) => pv.metadata?.annotations?.[betaStorageClassAnnotation('kubernetes.io')] ?? pv.spec?.storageClassName ?? '',
    },
    { name: 'VolumeAttributesClass', type: 'string', value: (pv) => pv.spec?.volumeAttributesClassName ?? '<unset>' },
    { name: 'Reason', type: 'string', value: (pv) => pv.status?.reason ?? '' },
    { name: 'Age', type: 'date', value: (pv) => pv.metadata?.creationTimestamp },
    { name: 'VolumeMode', type: 'string', priority: 1, value: (pv) => pv.spec?.volumeMode ?? '<unset>' },
  ],
  deletion: { returnDeletedObject: true },
  strategy: {
    prepareForCreate(pv, ctx) {
      pv.status = { phase: 'Pending', lastPhaseTransitionTime: nowText(ctx) };
    },
    prepareForUpdate(pv, old, ctx) {
      if (ctx.subresource !== 'status') return;
      const status = (pv.status ??= {});
      const oldStatus = old.status ?? {};
      if (status.phase === oldStatus.phase) {
        if (status.lastPhaseTransitionTime === undefined && oldStatus.lastPhaseTransitionTime !== undefined)
          status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
      } else if (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === oldStatus.lastPhaseTransitionTime) {
        status.lastPhaseTransitionTime = nowText(ctx);
      }
    },
    defaults: (pv) => defaultPersistentVolume(pv),
    validate(pv, ctx) {
      // /status checks only ObjectMeta (ValidatePersistentVolumeStatusUpdate).
      if (ctx.subresource === 'status') return [];
      return validatePersistentVolumeSpec(pv.spec ?? {}, pv.metadata?.name ?? '');
    },
    validateUpdate(pv, old, ctx) {
      if (ctx.subresource === 'status') return [];
      return validatePersistentVolumeUpdate(pv, old);
    },
    warnings(pv, old, ctx) {
      if (old) return [];
      const warnings: string[] = [];
      const annotation = betaStorageClassAnnotation(ctx.reservedDomain);
      if (pv.metadata?.annotations && Object.prototype.hasOwnProperty.call(pv.metadata.annotations, annotation)) {
        warnings.push(`metadata.annotations[${annotation}]: deprecated since v1.8; use "storageClassName" attribute instead`);
      }
      for (const [source] of PV_SOURCES) {
        const msg = DEPRECATED_SOURCES[source];
        if (msg && pv.spec?.[source] !== undefined) warnings.push(`spec.${source === 'storageos' ? 'storageOS' : source}: ${msg}`);
      }
      return warnings;
    },
  },
});
